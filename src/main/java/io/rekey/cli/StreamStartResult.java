package io.rekey.cli;

import io.rekey.common.JsonResult;
import io.rekey.rekey.RekeyResult;

/**
 * What {@code stream start} did: the stream as HBase reports it after the start, and the copy it
 * ran while the peer held the WAL.
 *
 * @param stream the stream's peer and its queues
 * @param copy the copy's result; null with {@code --no-copy}
 */
public record StreamStartResult(StreamResult stream, RekeyResult copy) implements JsonResult {}
