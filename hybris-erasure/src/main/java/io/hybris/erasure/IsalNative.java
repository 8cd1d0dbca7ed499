/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;

/**
 * The JNI entry points of {@code libhybris_isal.so} (source: {@code src/main/native/hybris_isal.c}) and its
 * loading: the library is a resource of this jar, copied to a temporary file and loaded once per class loader.
 * It links ISA-L ({@code libisal.so.2}); if either is missing, {@link #unavailableReason()} says why.
 */
final class IsalNative {

    static final String RESOURCE = "/native/linux-x86_64/libhybris_isal.so";

    private static final String REASON = load();

    private IsalNative() {
    }

    /** Empty if the library is loaded, else why not. */
    static Optional<String> unavailableReason() {
        return Optional.ofNullable(REASON);
    }

    private static String load() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            return "the native coder is built for linux-x86_64 only, this is " + os + "-" + arch;
        }
        try (InputStream in = IsalNative.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return "this hybris-erasure jar has no " + RESOURCE + " (it was built without ISA-L's headers; "
                        + "install libisal-dev and rebuild)";
            }
            Path file = Files.createTempFile("hybris_isal", ".so");
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            System.load(file.toAbsolutePath().toString());
            return null;
        } catch (IOException e) {
            return "could not extract " + RESOURCE + " to a temporary file: " + e;
        } catch (UnsatisfiedLinkError | SecurityException e) {
            return "could not load the JNI library (is ISA-L's runtime, Debian package libisal2, installed?): "
                    + e.getMessage();
        }
    }

    /** ISA-L {@code ec_init_tables}: {@code matrix} is {@code targets x sources}, {@code tables} 32 bytes each. */
    static native void initTables(int sources, int targets, byte[] matrix, byte[] tables);

    /** ISA-L {@code ec_encode_data} over the first {@code length} bytes of each array. */
    static native void encode(int length, int sources, int targets, byte[] tables, byte[][] in, byte[][] out);
}
