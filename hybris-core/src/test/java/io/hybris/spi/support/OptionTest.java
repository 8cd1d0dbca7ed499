/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import io.hybris.HybrisConfigurationException;
import io.hybris.spi.ProviderOptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OptionTest {
    private static final Option<Duration> TIMEOUT = Option.duration("connect-timeout", Duration.ofSeconds(5),
            "TCP connect timeout").positive().deprecatedAlias("connection-timeout");
    private static final Option<Integer> RETRIES = Option.integer("retries", 0, "SDK retries")
            .between(0, 10, " (per request)");

    private static ProviderOptions options(Map<String, String> values) {
        return new ProviderOptions("hybris.x.", values);
    }

    @Test
    void readsParsesAndDefaults() {
        assertThat(TIMEOUT.get(options(Map.of("connect-timeout", "250ms")))).isEqualTo(Duration.ofMillis(250));
        assertThat(TIMEOUT.get(options(Map.of()))).isEqualTo(Duration.ofSeconds(5));
        assertThat(TIMEOUT.find(options(Map.of("connect-timeout", " ")))).isEmpty();
        assertThat(RETRIES.get(options(Map.of("retries", "3")))).isEqualTo(3);
    }

    @Test
    void badValuesAreErrorsNamingTheKeyTheValueAndTheFix() {
        assertThatThrownBy(() -> TIMEOUT.get(options(Map.of("connect-timeout", "soon"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.x.connect-timeout=soon is not a duration; write e.g. 250ms");
        assertThatThrownBy(() -> TIMEOUT.get(options(Map.of("connect-timeout", "0s"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.x.connect-timeout=PT0S must be positive");
        assertThatThrownBy(() -> RETRIES.get(options(Map.of("retries", "11"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.x.retries=11 must be between 0 and 10 (per request)");
        assertThatThrownBy(() -> RETRIES.check("hybris.x.retries", null))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.x.retries=null");
    }

    @Test
    void aRequiredOptionThatIsMissingNamesTheKeyAndWhatItIs() {
        Option<String> bucket = Option.string("bucket", null, "the bucket").required();
        assertThatThrownBy(() -> bucket.get(options(Map.of())))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.x.bucket is required but not set: the bucket");
        assertThat(bucket.find(options(Map.of()))).isEmpty();
    }

    @Test
    void aDeprecatedAliasIsReadWarnedAboutOnceAndConflictsWithTheNewName() {
        assertThat(TIMEOUT.get(options(Map.of("connection-timeout", "3s")))).isEqualTo(Duration.ofSeconds(3));
        assertThat(Option.warnDeprecated("hybris.x.connection-timeout", "hybris.x.connect-timeout")).isFalse();
        assertThat(Option.warnDeprecated("hybris.y.connection-timeout", "hybris.y.connect-timeout")).isTrue();
        assertThat(Option.warnDeprecated("hybris.y.connection-timeout", "hybris.y.connect-timeout")).isFalse();
        assertThatThrownBy(() -> TIMEOUT.get(options(Map.of("connection-timeout", "0s"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.x.connection-timeout=PT0S must be positive");
        assertThatThrownBy(() -> TIMEOUT.get(options(Map.of("connection-timeout", "3s", "connect-timeout", "4s"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.x.connect-timeout and hybris.x.connection-timeout are both set")
                .hasMessageContaining("remove hybris.x.connection-timeout");
    }

    @Test
    void checksApplyToBuilderValuesToo() {
        assertThat(TIMEOUT.orDefault("k", null)).isEqualTo(Duration.ofSeconds(5));
        assertThat(TIMEOUT.orDefault("k", Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(1));
        assertThatThrownBy(() -> TIMEOUT.orDefault("hybris.x.connect-timeout", Duration.ofSeconds(-1)))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.x.connect-timeout=PT-1S must be positive");
    }

    @Test
    void theDocsTableComesFromTheDescriptors() {
        OptionSet set = OptionSet.of(Option.string("bucket", null, "the bucket").required(), TIMEOUT,
                Option.path("trust-store", "CAs to trust").defaultText("the JDK's CAs"), RETRIES,
                Option.duration("watch-wait", Duration.ofMinutes(5), "wait"));
        assertThat(set.names()).containsExactly("bucket", "connect-timeout", "connection-timeout", "retries",
                "trust-store", "watch-wait");
        assertThat(set.markdownTable()).isEqualTo("""
                | option | default | meaning |
                |---|---|---|
                | `bucket` | required | the bucket |
                | `connect-timeout` | `5s` | TCP connect timeout (deprecated old name `connection-timeout`: still \
                accepted, with a warning) |
                | `trust-store` | the JDK's CAs | CAs to trust |
                | `retries` | `0` | SDK retries |
                | `watch-wait` | `5m` | wait |
                """);
        assertThatThrownBy(() -> OptionSet.of(TIMEOUT, Option.string("connection-timeout", null, "x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("connection-timeout");
    }
}
