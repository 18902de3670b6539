"""What the anchor children of the bench harness (compare_read.py, v3_read.py) report to the JVM that runs them:
peak RSS, CPU time, and the marks it waits on."""
import sys


def peak_rss_kib():
    """VmHWM of this process (KiB). Not ru_maxrss: Linux keeps that across exec, so a child of a large JVM
    would report the JVM's peak."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return -1


def cpu_ticks():
    """utime + stime of this process in clock ticks (fields 14 and 15 of /proc/self/stat), as FreshRead."""
    with open("/proc/self/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def oneshot_report(t_start, t_imported, t_opened, t_read, digest):
    """The four lines a --oneshot child prints, as FreshRead does: the phase marks (CLOCK_MONOTONIC ns), the peak
    RSS, the CPU ticks so far and the values' sha256."""
    print("PHASES %d %d %d %d" % (t_start, t_imported, t_opened, t_read), flush=True)
    print("RSS %d" % peak_rss_kib(), flush=True)
    print("CPU %d" % cpu_ticks(), flush=True)
    print(digest, flush=True)


def mark(what):
    """Tells the harness a phase is reached (it resets or reads its request counts) and waits for its go."""
    print("@" + what, flush=True)
    sys.stdin.readline()
