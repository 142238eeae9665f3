package dev.shuttle.client.exchange;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.drain.Drainer;
import dev.shuttle.client.internal.ClientSettings;
import dev.shuttle.client.internal.StatsRecorder;

/**
 * What an exchange needs from its client and its call.
 *
 * @param trace the call's trace (client-wide and per-request combined)
 */
public record ExchangeContext(ClientSettings settings, ClientTrace trace, Drainer drainer, StatsRecorder stats) {
}
