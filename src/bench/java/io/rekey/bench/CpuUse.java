package io.rekey.bench;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The cores a method kept busy: this JVM's (driver and local executors: its process CPU time) and
 * the whole machine's (Linux's {@code /proc/stat}, which includes the region server's and
 * everything else's), over the method's wall time. On a machine of two cores, a method that keeps
 * both busy is bound by the CPU work it does, and the ratio of two such methods' times is the ratio
 * of their work; one that leaves them idle waits on something (a region server, a disk, the
 * driver). The JIT compilers' time during the method says whether its code was still being compiled
 * (warm-up rounds exist to make it small).
 */
final class CpuUse {
  private static final Path PROC_STAT = Path.of("/proc/stat");

  private final long processNanos;
  private final long[] machine;
  private final long jitMillis;

  private CpuUse(long processNanos, long[] machine, long jitMillis) {
    this.processNanos = processNanos;
    this.machine = machine;
    this.jitMillis = jitMillis;
  }

  static CpuUse start() {
    return new CpuUse(processCpuNanos(), machineJiffies(), jitMillis());
  }

  /** The JIT compilers' time so far (-1 when the JVM does not say). */
  private static long jitMillis() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    return jit != null && jit.isCompilationTimeMonitoringSupported()
        ? jit.getTotalCompilationTime()
        : -1;
  }

  /** The cores used since {@link #start}, over {@code seconds} of wall time. */
  Map<String, Object> since(double seconds) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("cores", Runtime.getRuntime().availableProcessors());
    long process = processCpuNanos();
    if (process >= 0 && processNanos >= 0 && seconds > 0) {
      out.put("benchJvmBusyCores", RekeyBenchmark.round((process - processNanos) / 1e9 / seconds));
    }
    long jit = jitMillis();
    if (jit >= 0 && jitMillis >= 0) {
      // Compiler threads' time: on two cores, code still being compiled takes a core's share.
      out.put("jitCompileSeconds", RekeyBenchmark.round((jit - jitMillis) / 1000.0));
    }
    long[] now = machineJiffies();
    if (now != null && machine != null && now[1] > machine[1]) {
      // Busy over all jiffies of all cores, times the cores the kernel counts in them.
      double busyShare = (double) (now[0] - machine[0]) / (now[1] - machine[1]);
      out.put("machineBusyCores", RekeyBenchmark.round(busyShare * now[2]));
      // Steal is time this virtual machine's cores were ready to run but the hypervisor ran
      // another guest: counted as busy above, it is work this machine did not get to do.
      double stolenShare = (double) (now[3] - machine[3]) / (now[1] - machine[1]);
      out.put("machineStolenCores", RekeyBenchmark.round(stolenShare * now[2]));
    }
    return out;
  }

  private static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  /**
   * {busy, total} jiffies of the aggregate "cpu" line, the number of "cpuN" lines, and the stolen
   * jiffies; or null.
   */
  private static long[] machineJiffies() {
    try {
      long busy = 0;
      long total = 0;
      int cpus = 0;
      long steal = 0;
      for (String line : Files.readAllLines(PROC_STAT)) {
        if (line.startsWith("cpu ")) {
          String[] f = line.trim().split("\\s+");
          // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
          for (int i = 1; i < Math.min(f.length, 9); i++) {
            long v = Long.parseLong(f[i]);
            total += v;
            if (i != 4 && i != 5) {
              busy += v;
            }
            if (i == 8) {
              steal = v;
            }
          }
        } else if (line.startsWith("cpu")) {
          cpus++;
        }
      }
      return total == 0 ? null : new long[] {busy, total, cpus, steal};
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
