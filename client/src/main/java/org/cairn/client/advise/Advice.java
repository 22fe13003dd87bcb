package org.cairn.client.advise;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What {@code cairn advise} answers: the checkpoint interval for app/node on compute host {@code client}
 * ({@code intervalSeconds}, from {@code formula}), the mean time to interruption it assumed ({@code mtbfSeconds},
 * with its 90% interval, the interruptions and UP time seen over {@code windowSeconds} of history) and the
 * checkpoint's cost ({@code checkpointSeconds}, the median of {@code checkpointSamples} recent pauses), and the
 * confidence of the whole (the lower of the two estimates'). {@code latestStep}: the node's newest version (0: none).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Advice(String app, String node, String client, long intervalSeconds, String formula, double youngSeconds,
    double dalySeconds, double mtbfSeconds, Double mtbfLowSeconds, Double mtbfHighSeconds, int interruptions, double upSeconds,
    long windowSeconds, String mtbfConfidence, String mtbfSource, double checkpointSeconds, int checkpointSamples,
    Double checkpointMinSeconds, Double checkpointMaxSeconds, String checkpointConfidence, String checkpointSource, String confidence,
    long latestStep) {}
