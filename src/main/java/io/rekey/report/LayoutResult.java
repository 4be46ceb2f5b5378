package io.rekey.report;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.rekey.common.JsonResult;
import io.rekey.keys.LayoutPreview;

/**
 * What {@code layout} shows of a key mapping, as its JSON result: the preview's fields, with the
 * schema version beside them (the preview itself stays in the pure key package).
 *
 * @param preview both layouts, injectivity and decodability, the keys mapped, split points, scans
 */
public record LayoutResult(@JsonUnwrapped LayoutPreview preview) implements JsonResult {}
