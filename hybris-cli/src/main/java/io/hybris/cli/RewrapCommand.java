/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.InvalidRequestException;
import io.hybris.RewrapReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code hybris rewrap}: KEK rotation, re-wrapping every data key under the current key-encryption key. */
@Command(name = "rewrap", mixinStandardHelpOptions = true,
        description = "Rotate the key-encryption key: re-wrap every encrypted value's data key under "
                + "hybris.crypto.kek.current (metadata only; no cloud object is read or written). Configure both "
                + "the old and the new KEK, run this, then drop the old one. Safe to run again.")
final class RewrapCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Override
    public Integer call() {
        Session session = root.session;
        session.hybris();
        RewrapReport r;
        try (Progress progress = session.items("re-wrapping data keys", "entries")) {
            r = progress.visible() ? session.hybris().rewrapDataKeys(progress::set)
                    : session.hybris().rewrapDataKeys();
        } catch (InvalidRequestException e) { // no key provider configured
            throw new CliException(ExitCode.CONFIG, e.getMessage(), e);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("examined", r.examined());
        doc.put("rewrapped", r.rewrapped());
        doc.put("alreadyCurrent", r.alreadyCurrent());
        doc.put("notEncrypted", r.notEncrypted());
        doc.put("unreadable", r.unreadable());
        doc.put("unreadableKeys", r.unreadableKeys());
        session.emit(doc, () -> {
            session.out().println("rewrap: examined " + r.examined() + " entries, " + r.rewrapped() + " re-wrapped, "
                    + r.alreadyCurrent() + " already under the current KEK, " + r.notEncrypted() + " not encrypted"
                    + (r.unreadable() == 0 ? "" : ", " + r.unreadable() + " unreadable"));
            r.unreadableKeys().forEach(k -> session.out().println("unreadable: " + k));
        });
        if (r.unreadable() > 0) {
            // the rotation is not done: dropping the old KEK now would lose these
            session.err().println("hybris: " + r.unreadable() + " entries could not be re-wrapped (their KEK is not"
                    + " configured here); keep the old KEK until they are");
            return ExitCode.OTHER;
        }
        return ExitCode.OK;
    }
}
