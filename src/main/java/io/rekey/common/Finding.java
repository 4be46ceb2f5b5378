package io.rekey.common;

/**
 * One design check that fired: what, how bad, the numbers behind it, and what to change.
 *
 * @param code a stable identifier, e.g. {@code single-region}, for scripts that filter findings
 * @param severity how much it matters
 * @param subject what it is about: the table or a family
 * @param evidence the numbers that made it fire
 * @param advice what to change
 */
public record Finding(
    String code, Severity severity, String subject, String evidence, String advice) {}
