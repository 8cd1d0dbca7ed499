/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Cost (docs/cost.md): price sheets ({@link io.hybris.cost.CloudPrices}, {@link io.hybris.cost.TieredPrice}) and
 * cost-aware placement ({@link io.hybris.cost.CostSettings}, {@link io.hybris.cost.Placement},
 * {@link io.hybris.cost.CostModel}); what a client asked of each cloud ({@link io.hybris.cost.CloudUsage}) and what it
 * costs ({@link io.hybris.cost.Billing}, {@link io.hybris.cost.CostReport}); the estimator of a workload's monthly
 * cost ({@link io.hybris.cost.CostEstimator}, {@link io.hybris.cost.Workload}, {@link io.hybris.cost.CostEstimate}).
 */
package io.hybris.cost;
