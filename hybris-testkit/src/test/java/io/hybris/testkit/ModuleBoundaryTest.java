/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API boundary is enforced by the compiler: a module that requires {@code io.hybris.core} compiles against the
 * API and the SPI, and fails to compile when it imports {@code io.hybris.internal}.
 */
class ModuleBoundaryTest {
    @TempDir
    Path dir;

    @Test
    void aModuleThatImportsTheInternalPackageDoesNotCompile() throws Exception {
        Result r = compile("import io.hybris.internal.Engine;\npublic class Probe { Engine engine; }\n");
        assertThat(r.ok()).as(r.diagnostics()).isFalse();
        assertThat(r.diagnostics()).contains("package io.hybris.internal is not visible")
                .contains("declared in module io.hybris.core, which does not export it");
    }

    @Test
    void aModuleThatUsesTheApiAndTheSpiCompiles() throws Exception {
        Result r = compile("import io.hybris.Hybris;\nimport io.hybris.spi.CloudStore;\nimport io.hybris.spi.VersionName;\n"
                + "public class Probe { Hybris client; CloudStore cloud; VersionName name; }\n");
        assertThat(r.ok()).as(r.diagnostics()).isTrue();
    }

    private record Result(boolean ok, String diagnostics) {
    }

    private Result compile(String probeClass) throws IOException, URISyntaxException {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("probe"));
        Files.writeString(src.resolve("module-info.java"), "module probe { requires io.hybris.core; }\n");
        Files.writeString(src.resolve("probe/Probe.java"), "package probe;\n" + probeClass);
        Path out = Files.createDirectories(dir.resolve("out"));
        String modulePath = codeSource(Hybris.class) + java.io.File.pathSeparator + codeSource(LoggerFactory.class);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, null)) {
            Iterable<? extends JavaFileObject> units = files.getJavaFileObjects(src.resolve("module-info.java"),
                    src.resolve("probe/Probe.java"));
            boolean ok = javac.getTask(null, files, diagnostics, List.of("--module-path", modulePath,
                    "--class-path", Files.createDirectories(dir.resolve("empty")).toString(), "-d", out.toString()), null, units).call();
            return new Result(ok, diagnostics.getDiagnostics().stream().map(d -> d.getMessage(null))
                    .collect(Collectors.joining("\n")));
        }
    }

    private static String codeSource(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
