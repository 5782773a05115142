"""What the counter colluders (channel_sender.py, channel_receiver.py) share: a covert channel
through a count of the machine that one bot moves and another reads.

The sender and the receiver are given the same wall-clock start time and slot length (the clock
is the machine's, in every sandbox). Bit i takes slot i, in two halves (Manchester coding): for
a 1 the sender is "on" in the first half and "off" in the second, for a 0 the reverse. The
receiver measures the count over each half and reads a 1 when the first half looks "on". A
channel is a level (the count while the sender is on: free inodes, processes, free memory,
sockets, inode numbers of new files) or a rate (how fast the count moves while the sender is
on: pipe inode numbers, the receiver's own loop under the sender's load):

  statfs  -- on: 200 empty files in the sender's working directory; read: the free inodes of
             statvfs(PATH) (fewer when on). The channel of issue 26.
  procs   -- on: 100 threads; read: sysinfo()'s count of the machine's threads (more when on).
  freeram -- on: 512 MiB allocated and populated; read: sysinfo()'s free memory (less when on).
  tcp     -- on: 200 TCP sockets; read: "alloc" of TCP in /proc/self/net/sockstat (more when on).
  pipes   -- on: making and closing pipes as fast as it can; read: the inode number the kernel
             gives the receiver's next batch of pipes (it grows faster when on).
  cpu     -- on: two child processes spinning; read: the iterations of the receiver's own loop (fewer
             when on: they share the CPUs).
  inodes  -- on: 200 empty files in the sender's working directory; read: the inode number of
             a file the receiver creates in its own working directory (higher when on, when the
             two directories are in one group of one ext4 file system).
  pagecache -- on: a page of the file PATH (which both can read) read into the page cache,
             off: evicted again (posix_fadvise DONTNEED, at every half: the receiver's own
             reading caches it); read: how long reading it takes (less when on)."""
import ctypes
import mmap
import os
import signal
import socket
import threading
import time

LEVEL_DOWN, LEVEL_UP, RATE_UP, RATE_DOWN = "level-down", "level-up", "rate-up", "rate-down"


class Sysinfo(ctypes.Structure):
    _fields_ = [("uptime", ctypes.c_long), ("loads", ctypes.c_ulong * 3),
                ("totalram", ctypes.c_ulong), ("freeram", ctypes.c_ulong),
                ("sharedram", ctypes.c_ulong), ("bufferram", ctypes.c_ulong),
                ("totalswap", ctypes.c_ulong), ("freeswap", ctypes.c_ulong),
                ("procs", ctypes.c_ushort), ("pad", ctypes.c_ushort),
                ("totalhigh", ctypes.c_ulong), ("freehigh", ctypes.c_ulong),
                ("mem_unit", ctypes.c_uint), ("_f", ctypes.c_char * 8)]


def sysinfo():
    info = Sysinfo()
    ctypes.CDLL(None).sysinfo(ctypes.byref(info))
    return info


class Files:
    """Holds `count` empty files in the working directory while on."""

    def __init__(self, count):
        self.names = [f"channel-{os.getpid()}-{i}" for i in range(count)]

    def on(self):
        for name in self.names:
            os.close(os.open(name, os.O_CREAT | os.O_WRONLY, 0o600))

    def off(self):
        for name in self.names:
            os.unlink(name)


class Threads:
    """Holds `count` idle threads while on."""

    def __init__(self, count):
        self.count, self.release, self.threads = count, None, []

    def on(self):
        self.release = threading.Event()
        self.threads = [threading.Thread(target=self.release.wait) for _ in range(self.count)]
        for t in self.threads:
            t.start()

    def off(self):
        self.release.set()
        for t in self.threads:
            t.join()


class Memory:
    """Holds `megabytes` MiB of memory, populated, while on."""

    def __init__(self, megabytes):
        self.size, self.block = megabytes << 20, None

    def on(self):
        flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | mmap.MAP_POPULATE
        self.block = mmap.mmap(-1, self.size, flags=flags)

    def off(self):
        self.block.close()


class Sockets:
    """Holds `count` TCP sockets while on."""

    def __init__(self, count):
        self.count, self.sockets = count, []

    def on(self):
        self.sockets = [socket.socket() for _ in range(self.count)]

    def off(self):
        for s in self.sockets:
            s.close()


class Busy:
    """Does `work()` again and again on `threads` threads while on."""

    def __init__(self, work, threads=1):
        self.work, self.threads, self.stop = work, threads, threading.Event()
        self.stop.set()

    def on(self):
        self.stop = threading.Event()
        for _ in range(self.threads):
            threading.Thread(target=self.loop, daemon=True).start()

    def loop(self):
        while not self.stop.is_set():
            self.work()

    def off(self):
        self.stop.set()


class Spinners:
    """Holds `count` child processes spinning while on."""

    def __init__(self, count):
        self.count, self.pids = count, []

    def on(self):
        for _ in range(self.count):
            pid = os.fork()
            if pid == 0:
                while True:
                    pass
            self.pids.append(pid)

    def off(self):
        for pid in self.pids:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        self.pids = []


class Cached:
    """Keeps a page of the file `path`, 64 MiB in (or at its start), in the page cache while on;
    evicts it, and the read-ahead around it, while off."""

    def __init__(self, path):
        self.fd = os.open(path, os.O_RDONLY)
        self.offset = min(64 << 20, os.fstat(self.fd).st_size // 2) & ~4095

    def on(self):
        os.pread(self.fd, 1, self.offset)

    def off(self):
        window = 4 << 20
        os.posix_fadvise(self.fd, max(0, self.offset - window), 2 * window,
                         os.POSIX_FADV_DONTNEED)


def read_time(path):
    """Nanoseconds to read a byte of the page Cached keeps (the same file and offset)."""
    fd = os.open(path, os.O_RDONLY)
    offset = min(64 << 20, os.fstat(fd).st_size // 2) & ~4095
    begin = time.perf_counter_ns()
    os.pread(fd, 1, offset)
    took = time.perf_counter_ns() - begin
    os.close(fd)
    return took


def make_pipe():
    a, b = os.pipe()
    ino = os.fstat(a).st_ino
    os.close(a)
    os.close(b)
    return ino


def spin():
    for _ in range(1000):
        pass


def free_inodes(path):
    return os.statvfs(path).f_ffree


def tcp_sockets(_path):
    with open("/proc/self/net/sockstat") as f:
        for line in f:
            if line.startswith("TCP:"):
                fields = line.split()
                return int(fields[fields.index("alloc") + 1])
    raise OSError(0, "no TCP line")


def next_pipe_batch(_path):
    """The latest batch of inode numbers the kernel has handed the receiver's CPU: it hands
    them out to each CPU 1,024 at a time, from one counter of the machine, so a batch's number
    counts the batches every CPU took before it. Making 1,100 pipes takes a fresh one."""
    return max((make_pipe() - 1) // 1024 for _ in range(1100))


def new_inode(path):
    name = os.path.join(path, f"probe-{os.getpid()}")
    fd = os.open(name, os.O_CREAT | os.O_WRONLY, 0o600)
    ino = os.fstat(fd).st_ino
    os.close(fd)
    os.unlink(name)
    return ino


# name: (the sender's switch, made from PATH; the receiver's reading, of PATH; its kind; whether
# the sender sets its state again at every half, even when it stays the same).
CHANNELS = {
    "statfs": (lambda _: Files(200), free_inodes, LEVEL_DOWN, False),
    "procs": (lambda _: Threads(100), lambda _: sysinfo().procs, LEVEL_UP, False),
    "freeram": (lambda _: Memory(512), lambda _: sysinfo().freeram, LEVEL_DOWN, False),
    "tcp": (lambda _: Sockets(200), tcp_sockets, LEVEL_UP, False),
    "pipes": (lambda _: Busy(make_pipe), next_pipe_batch, RATE_UP, False),
    "cpu": (lambda _: Spinners(2), None, RATE_DOWN, False),
    "inodes": (lambda _: Files(200), new_inode, LEVEL_UP, False),
    "pagecache": (Cached, read_time, LEVEL_DOWN, True),
}


def boundary(start, slot, k):
    """The wall-clock time at which half k begins."""
    return start + k * slot / 2


def sleep_until(moment):
    delay = moment - time.time()
    if delay > 0:
        time.sleep(delay)


def send(channel, start, slot, bits, stop, path):
    """Sends `bits` (a string of 0 and 1) until the event `stop` is set; skips a half that is
    over before its switch (a sender that falls behind). Returns the errors met, by errno."""
    make, _, _, again = CHANNELS[channel]
    switch = make(path)
    errors, on = [], False
    for i, bit in enumerate(bits):
        for half, wanted in enumerate([bit == "1", bit == "0"]):
            k = 2 * i + half
            sleep_until(boundary(start, slot, k))
            if stop.is_set():
                break
            if (wanted != on or again) and time.time() < boundary(start, slot, k + 1):
                try:
                    switch.on() if wanted else switch.off()
                    on = wanted
                except OSError as e:
                    errors.append(e.errno)
    if on:
        switch.off()
    return errors


def receive(channel, start, slot, count, path):
    """Reads `count` bits; returns (bits, with "?" where a reading failed, the errors)."""
    _, read, kind, _ = CHANNELS[channel]
    guard = slot / 8
    values, errors = [], []
    if read is None:
        # The receiver's own loop, counted over each half.
        for k in range(1, 2 * count + 1):
            end, n = boundary(start, slot, k) - guard, 0
            sleep_until(boundary(start, slot, k - 1) + guard)
            while time.time() < end:
                spin()
                n += 1
            values.append(n)
        levels = values
    else:
        for k in range(2 * count + 1):
            if k == 0 and kind in (LEVEL_UP, LEVEL_DOWN):
                continue
            sleep_until(boundary(start, slot, k) - guard)
            try:
                values.append(read(path))
            except OSError as e:
                errors.append(e.errno)
                values.append(None)
        if kind in (RATE_UP, RATE_DOWN):
            levels = [None if a is None or b is None else b - a for a, b in zip(values, values[1:])]
        else:
            levels = values
    bits = ""
    for i in range(count):
        first, second = levels[2 * i], levels[2 * i + 1]
        if first is None or second is None or first == second:
            bits += "?"
        elif kind in (LEVEL_UP, RATE_UP):
            bits += "1" if first > second else "0"
        else:
            bits += "1" if first < second else "0"
    return bits, sorted(set(errors))
