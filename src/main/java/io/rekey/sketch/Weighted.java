package io.rekey.sketch;

/** An item (a qualifier, a key prefix) and its weight (cells, bytes or rows, as the list says). */
public record Weighted(String item, long weight) {}
