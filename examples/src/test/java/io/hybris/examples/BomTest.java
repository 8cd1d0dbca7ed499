/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The BOM lists every library module of the build: a module with main sources whose javadoc is published (not one
 * of the tools that set {@code maven.javadoc.skip}). Reads the poms of the checkout the test runs in.
 */
class BomTest {
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>([^<]+)</artifactId>");

    @Test
    void everyLibraryModuleIsInTheBom() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<String> libraries = new ArrayList<>();
        collect(root, libraries);
        String bom = Files.readString(root.resolve("hybris-bom/pom.xml"));
        assertThat(libraries).contains("hybris-core", "hybris-rmds-zookeeper", "hybris-cloud-s3");
        for (String artifact : libraries) {
            assertThat(bom).as("hybris-bom lists %s", artifact).contains("<artifactId>" + artifact + "</artifactId>");
        }
    }

    private static void collect(Path dir, List<String> libraries) throws IOException {
        String pom = Files.readString(dir.resolve("pom.xml"));
        Matcher modules = MODULE.matcher(pom);
        while (modules.find()) {
            collect(dir.resolve(modules.group(1)), libraries);
        }
        String own = pom.replaceAll("(?s)<parent>.*?</parent>", "").replaceAll("(?s)<dependencies>.*", "");
        Matcher artifact = ARTIFACT.matcher(own);
        if (Files.isDirectory(dir.resolve("src/main/java")) && !pom.contains("<maven.javadoc.skip>true")
                && artifact.find()) {
            libraries.add(artifact.group(1));
        }
    }
}
