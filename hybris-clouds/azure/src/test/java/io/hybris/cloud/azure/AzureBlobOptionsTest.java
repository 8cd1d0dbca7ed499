/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import io.hybris.Hybris;
import io.hybris.HybrisConfigurationException;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.ProviderOptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Option parsing and validation of {@code hybris.cloud.<id>.type=azure}: every bad or missing option is a
 * {@link HybrisConfigurationException} naming the full property key, raised before any request is sent (the
 * endpoint here is a closed port, so reaching the network would fail differently).
 */
class AzureBlobOptionsTest {
    private static final String KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    private final CloudStoreProvider provider = new AzureBlobCloudStoreProvider();

    private static Map<String, String> valid() {
        Map<String, String> m = new HashMap<>();
        m.put("endpoint", "http://127.0.0.1:1/devstoreaccount1");
        m.put("account", "devstoreaccount1");
        m.put("key", KEY);
        m.put("container", "hybris");
        return m;
    }

    private void assertRejected(Map<String, String> options, String... fragments) {
        assertThatThrownBy(() -> provider.create("az", new ProviderOptions("hybris.cloud.az.", options)))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContainingAll(fragments);
    }

    @Test
    void providerIsFoundByServiceLoaderUnderTypeAzure() {
        assertThat(ServiceLoader.load(CloudStoreProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.type().equals("azure")).toList())
                .singleElement().isInstanceOf(AzureBlobCloudStoreProvider.class);
        assertThat(provider.optionNames()).containsExactlyInAnyOrder("endpoint", "container", "prefix", "account",
                "key", "sas-token", "connection-string", "connect-timeout", "request-timeout", "retries",
                "create-bucket", "trust-store", "trust-store-password");
    }

    @Test
    void missingContainerIsNamed() {
        Map<String, String> o = valid();
        o.remove("container");
        assertRejected(o, "hybris.cloud.az.container", "required");
    }

    @Test
    void invalidContainerNamesAreRejectedWithTheRules() {
        for (String bad : new String[] {"Hybris", "hy", "hybris_data", "-hybris", "hybris-", "hy--bris",
                "x".repeat(64)}) {
            Map<String, String> o = valid();
            o.put("container", bad);
            assertRejected(o, "hybris.cloud.az.container=" + bad, "3-63 lower-case letters, digits and single hyphens");
        }
    }

    @Test
    void credentialsMustBeGivenExactlyOneWay() {
        Map<String, String> none = valid();
        none.remove("key");
        assertRejected(none, "no credentials", "hybris.cloud.az.key", "hybris.cloud.az.sas-token",
                "hybris.cloud.az.connection-string", "azure-identity");

        Map<String, String> two = valid();
        two.put("sas-token", "sv=2020-08-04&sig=abc");
        assertRejected(two, "several credentials", "hybris.cloud.az.key, hybris.cloud.az.sas-token");

        Map<String, String> three = valid();
        three.put("sas-token", "sv=2020-08-04&sig=abc");
        three.put("connection-string", "AccountName=a;AccountKey=b");
        assertRejected(three, "several credentials", "hybris.cloud.az.connection-string");
    }

    @Test
    void keyNeedsAnAccountAndMustBeBase64() {
        Map<String, String> noAccount = valid();
        noAccount.remove("account");
        assertRejected(noAccount, "hybris.cloud.az.key needs hybris.cloud.az.account");

        Map<String, String> notBase64 = valid();
        notBase64.put("key", "not base64 at all!");
        assertThatThrownBy(() -> provider.create("az", new ProviderOptions("hybris.cloud.az.", notBase64)))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.az.key is not a base64")
                .hasMessageNotContaining("not base64 at all!");
    }

    @Test
    void connectionStringExcludesAccountAndEndpoint() {
        Map<String, String> withEndpoint = new HashMap<>(Map.of("container", "hybris",
                "connection-string", "AccountName=a;AccountKey=b", "endpoint", "http://127.0.0.1:1/a"));
        assertRejected(withEndpoint, "hybris.cloud.az.endpoint must not be set with hybris.cloud.az.connection-string");

        Map<String, String> withAccount = new HashMap<>(Map.of("container", "hybris",
                "connection-string", "AccountName=a;AccountKey=b", "account", "abc"));
        assertRejected(withAccount, "hybris.cloud.az.account must not be set with");

        Map<String, String> incomplete = new HashMap<>(Map.of("container", "hybris", "connection-string", "Foo=bar"));
        assertRejected(incomplete, "cannot configure Azure cloud 'az'", "check hybris.cloud.az.connection-string");

        Map<String, String> garbage = new HashMap<>(Map.of("container", "hybris", "connection-string", "garbage"));
        assertRejected(garbage, "hybris.cloud.az.connection-string is not a storage connection string");
    }

    @Test
    void sasTokenNeedsAnEndpointOrAnAccount() {
        Map<String, String> o = new HashMap<>(Map.of("container", "hybris", "sas-token", "?sv=2020&sig=x"));
        assertRejected(o, "set hybris.cloud.az.endpoint", "hybris.cloud.az.account");
    }

    @Test
    void badEndpointsAreRejected() {
        for (String bad : new String[] {"ftp://host/x", "not a url", "https://host/account?sv=1"}) {
            Map<String, String> o = valid();
            o.put("endpoint", bad);
            assertRejected(o, "hybris.cloud.az.endpoint=" + bad);
        }
        Map<String, String> portWithoutAccount = valid();
        portWithoutAccount.put("endpoint", "http://127.0.0.1:10000");
        assertRejected(portWithoutAccount, "hybris.cloud.az.endpoint=http://127.0.0.1:10000 has a port",
                "path must be just the storage account");

        Map<String, String> otherAccount = valid();
        otherAccount.put("endpoint", "http://127.0.0.1:10000/someoneelse");
        assertRejected(otherAccount, "names account 'someoneelse' but hybris.cloud.az.account=devstoreaccount1");

        Map<String, String> hostStyleWithPath = valid();
        hostStyleWithPath.put("endpoint", "https://acme.blob.core.windows.net/hybris");
        assertRejected(hostStyleWithPath, "hybris.cloud.az.endpoint=https://acme.blob.core.windows.net/hybris must"
                + " not have a path");

        Map<String, String> badAccount = valid();
        badAccount.put("account", "Has_Upper");
        assertRejected(badAccount, "hybris.cloud.az.account=Has_Upper", "3-24 lower-case letters and digits");
    }

    @Test
    void numbersDurationsAndFlagsAreValidated() {
        Map<String, String> retries = valid();
        retries.put("retries", "11");
        assertRejected(retries, "hybris.cloud.az.retries=11", "between 0 and 10");

        Map<String, String> notANumber = valid();
        notANumber.put("retries", "many");
        assertRejected(notANumber, "hybris.cloud.az.retries");

        Map<String, String> duration = valid();
        duration.put("request-timeout", "soon");
        assertRejected(duration, "hybris.cloud.az.request-timeout");

        Map<String, String> zero = valid();
        zero.put("connect-timeout", "0s");
        assertRejected(zero, "hybris.cloud.az.connect-timeout=PT0S must be positive");

        Map<String, String> flag = valid();
        flag.put("create-bucket", "yes please");
        assertRejected(flag, "hybris.cloud.az.create-bucket");
    }

    @Test
    void prefixAndTrustStoreAreValidated() {
        for (String bad : new String[] {"/abs", "a//b", "a/../b", "with space"}) {
            Map<String, String> o = valid();
            o.put("prefix", bad);
            assertRejected(o, "hybris.cloud.az.prefix=" + bad);
        }
        Map<String, String> store = valid();
        store.put("trust-store", "/nonexistent/truststore.p12");
        assertRejected(store, "hybris.cloud.az.trust-store=/nonexistent/truststore.p12", "not a readable file");

        Map<String, String> password = valid();
        password.put("trust-store-password", "secret");
        assertRejected(password, "hybris.cloud.az.trust-store-password is set but hybris.cloud.az.trust-store is not");
    }

    @Test
    void unknownOptionIsRejectedByNameIncludingCreateContainer() {
        Map<String, String> o = valid();
        o.put("create-container", "true");
        assertThatThrownBy(() -> Hybris.builder().metadataStore("memory", Map.of())
                .cloud("az", "azure", o)
                .cloud("m2", "memory", Map.of())
                .build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.az.create-container");
    }

    @Test
    void settingsKeepDefaultsAndNormaliseThePrefix() {
        AzureBlobCloudStore.Builder b = AzureBlobCloudStore.builder("az").account("myaccount").key(KEY)
                .container("hybris").prefix("tenant-a");
        AzureBlobSettings s = AzureBlobSettings.of(b);
        assertThat(s.endpoint()).hasToString("https://myaccount.blob.core.windows.net");
        assertThat(s.prefix()).isEqualTo("tenant-a/");
        assertThat(s.retries()).isZero();
        assertThat(s.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(s.requestTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(s.createBucket()).isFalse();
        assertThat(s.toString()).doesNotContain(KEY);
        assertThat(AzureBlobClients.retryOptions(s).getMaxTries()).isEqualTo(1);
        assertThat(AzureBlobClients.retryOptions(AzureBlobSettings.of(b.retries(3).requestTimeout(
                Duration.ofMillis(1500)))).getMaxTries()).isEqualTo(4);
        assertThat(AzureBlobClients.retryOptions(AzureBlobSettings.of(b)).getTryTimeoutDuration())
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(AzureBlobSettings.of(AzureBlobCloudStore.builder("az").sasToken("?sv=1&sig=x")
                .account("myaccount").container("hybris")).credentials())
                .isEqualTo(new AzureBlobSettings.SasToken("sv=1&sig=x"));
    }
}
