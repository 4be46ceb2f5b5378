package io.rekey.cli;

import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import scala.Tuple2;
import scala.collection.JavaConverters;
import scala.runtime.BoxedUnit;
import scopt.OEffect;
import scopt.OParser;
import scopt.OParserBuilder;
import scopt.Read$;

/**
 * The one place that speaks scopt: turns a command's {@link OptionDef}s into a scopt parser, runs
 * it without letting scopt print or exit, and hands back what happened. Values are collected as
 * text; {@link OptionValues#validate} converts them, so that the command line and {@code conf/}
 * files go through the same checks and messages.
 */
final class ScoptParser {
  private ScoptParser() {}

  /** What parsing the command line gave. */
  sealed interface Outcome {}

  /** The arguments parsed; the values are not validated yet. */
  record Parsed(OptionValues values) implements Outcome {}

  /** {@code --help} was asked for. */
  record Help(String usage) implements Outcome {}

  /** The arguments do not fit the options. */
  record Failed(List<String> errors, String usage) implements Outcome {}

  static Outcome parse(String program, String summary, List<OptionDef<?>> defs, String[] args) {
    OParser<?, OptionValues> parser = build(program, summary, defs);
    Tuple2<scala.Option<OptionValues>, scala.collection.immutable.List<OEffect>> result =
        OParser.runParser(
            parser,
            JavaConverters.asScalaBuffer(Arrays.asList(args)).toList(),
            OptionValues.empty());
    List<String> errors = new ArrayList<>();
    String shown = null;
    for (OEffect effect : JavaConverters.seqAsJavaList(result._2())) {
      if (effect instanceof OEffect.ReportError e) {
        errors.add(e.msg());
      } else if (effect instanceof OEffect.DisplayToOut d) {
        shown = d.msg();
      }
    }
    String usage = OParser.usage(parser);
    if (shown != null && errors.isEmpty()) {
      return new Help(shown);
    }
    if (!errors.isEmpty() || result._1().isEmpty()) {
      return new Failed(List.copyOf(errors), usage);
    }
    return new Parsed(result._1().get());
  }

  static String usage(String program, String summary, List<OptionDef<?>> defs) {
    return OParser.usage(build(program, summary, defs));
  }

  private static OParser<?, OptionValues> build(
      String program, String summary, List<OptionDef<?>> defs) {
    OParserBuilder<OptionValues> b = OParser.builder();
    List<OParser<?, OptionValues>> parts = new ArrayList<>();
    parts.add(b.head(JavaConverters.asScalaBuffer(List.of(summary)).toList()));
    for (OptionDef<?> def : defs) {
      OParser<?, OptionValues> opt;
      if (def.isFlag()) {
        opt =
            b.opt(def.name(), Read$.MODULE$.unitRead())
                .action((BoxedUnit unit, OptionValues c) -> c.with(def.name(), "true"));
      } else {
        opt =
            b.opt(def.name(), Read$.MODULE$.stringRead())
                .valueName(def.valueName() == null ? "VALUE" : def.valueName())
                .action((String value, OptionValues c) -> c.with(def.name(), value));
      }
      opt = opt.text(def.helpText());
      if (def.isRepeatable()) {
        opt = opt.unbounded();
      }
      parts.add(opt);
    }
    parts.add(b.help("help").text("show this help and exit"));
    return OParser.sequence(b.programName(program), JavaConverters.asScalaBuffer(parts).toList());
  }
}
