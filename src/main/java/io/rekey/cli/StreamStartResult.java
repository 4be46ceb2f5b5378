package io.rekey.cli;

import io.rekey.common.JsonResult;
import io.rekey.index.IndexRunResult;
import io.rekey.rekey.RekeyResult;
import java.util.List;

/**
 * What {@code stream start} did: the stream as HBase reports it after the start, and the copy it
 * ran while the peer held the WAL, and the builds of the indexes it keeps.
 *
 * @param stream the stream's peer and its queues
 * @param copy the copy's result; null with {@code --no-copy}
 * @param indexes the builds of the indexes the stream keeps ({@code --index}), in their order
 */
public record StreamStartResult(StreamResult stream, RekeyResult copy, List<IndexRunResult> indexes)
    implements JsonResult {}
