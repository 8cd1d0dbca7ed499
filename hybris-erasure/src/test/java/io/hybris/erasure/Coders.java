package io.hybris.erasure;

import io.hybris.spi.ErasureCoder;
import io.hybris.spi.ErasureCoderProvider;

import java.util.Optional;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/** Test helpers: the providers as ServiceLoader finds them, and the native-coder policy (fail on CI, else skip). */
final class Coders {

    private Coders() {
    }

    static ErasureCoderProvider provider(String name) {
        for (ErasureCoderProvider p : ServiceLoader.load(ErasureCoderProvider.class)) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new AssertionError("no ErasureCoderProvider named " + name + " on the class path");
    }

    /** The native provider; fails the test on CI ({@code CI=true}) when it is unavailable, skips it elsewhere. */
    static ErasureCoderProvider requireNative() {
        ErasureCoderProvider p = provider(NativeErasureCoderProvider.NAME);
        Optional<String> reason = p.unavailableReason();
        if (reason.isPresent()) {
            String message = "native erasure coder unavailable: " + reason.get()
                    + " (run src/test/install-native-deps.sh, then rebuild hybris-erasure)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(message);
            }
            abort(message);
        }
        return p;
    }

    static ErasureCoder java(int k, int m) {
        return provider(JavaErasureCoderProvider.NAME).create(k, m);
    }
}
