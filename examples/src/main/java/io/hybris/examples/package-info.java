/** Runnable examples: {@link io.hybris.examples.Quickstart} on the embedded default. */
package io.hybris.examples;
