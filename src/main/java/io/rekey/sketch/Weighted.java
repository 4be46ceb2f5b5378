package io.rekey.sketch;

/**
 * An item (a qualifier, a key prefix) and its weight (cells, bytes or rows, as the list says).
 *
 * @param item what is counted (a value, a qualifier, a prefix), printable
 * @param weight its count
 */
public record Weighted(String item, long weight) {}
