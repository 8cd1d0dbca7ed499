// Starts Azurite's blob service (the launcher given as the first argument, the rest are its options) with its
// periodic garbage collection of deleted blobs' data pushed out to once a day, i.e. off for a test run.
//
// Why: with --inMemoryPersistence every upload is an extent of its own, and Azurite's mark-and-sweep (every 10
// minutes) removes each unreferenced extent from its in-memory LokiJS collection one by one, each removal a pass over
// the whole collection, without yielding to the event loop. After ten minutes of the test suite a sweep blocked
// every request for 70 s (measured: a direct request to Azurite took 70.5 s), longer than a Hybris call's deadline;
// tests that reached Azure then failed, and after 45 minutes of campaigns Azurite stayed at 100% CPU. Without the
// sweep a deleted blob's bytes stay in memory until Azurite stops, which a test run (a few hundred MB) affords.
"use strict";
const fs = require("fs");
const path = require("path");

const launcher = fs.realpathSync(process.argv[2]); // .../azurite/dist/src/blob/main.js
const constants = require(path.join(path.dirname(launcher), "utils", "constants.js"));
constants.DEFAULT_GC_INTERVAL_MS = 24 * 60 * 60 * 1000; // read by BlobGCManager when the server is created
process.argv.splice(2, 1); // Azurite parses its options from process.argv as if started directly
console.log("azurite-blob-no-gc: garbage collection of deleted blobs every " + constants.DEFAULT_GC_INTERVAL_MS / 3600000 + " h");
require(launcher);
