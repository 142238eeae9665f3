package dev.shuttle.client.exchange;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.drain.Drainer;
import dev.shuttle.client.internal.ClientSettings;
import dev.shuttle.client.internal.StatsRecorder;
import dev.shuttle.client.internal.TaskScheduler;

/**
 * What an exchange needs from its client and its call.
 *
 * @param trace     the call's trace (client-wide and per-request combined)
 * @param scheduler the client's timer, for the HTTP/1.1 write timeout
 */
public record ExchangeContext(ClientSettings settings, ClientTrace trace, Drainer drainer, StatsRecorder stats,
                              TaskScheduler scheduler) {
}
