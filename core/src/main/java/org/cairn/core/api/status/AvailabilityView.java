package org.cairn.core.api.status;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Map;

/**
 * {@code GET /api/v1/availability?storage=PEER&compute=HOST[&window=7d]}: FALCON's measures of one storage
 * host against one compute host over {@code slots} slots: the probability the compute host is down, the
 * storage host's state probabilities given the compute host up or down (null where never observed),
 * correlated reliability (CR), load indicator (LI) and their combination (CRLS).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AvailabilityView(String storage, String compute, long slots, double pComputeDown, Map<String, Double> givenComputeUp,
    Map<String, Double> givenComputeDown, double cr, double li, double crls) {}
