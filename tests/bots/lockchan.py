"""What the two lock colluders (lock_sender.py, lock_receiver.py) share: the files that carry
the bits, and the ways of locking them.

A secret of BITS bits travels over the first BITS regular files, in sorted order, under a
directory every bot can read (/usr/share/zoneinfo; advisory locks work on read-only
descriptors and across mount namespaces). Bit i set: the sender holds a lock on file i. Each way
of locking is a channel of its own:
  flock -- flock(LOCK_SH); the receiver probes with flock(LOCK_EX | LOCK_NB);
  posix -- fcntl(F_SETLK) read lock; the receiver asks with fcntl(F_GETLK);
  ofd   -- fcntl(F_OFD_SETLK) read lock; the receiver asks with fcntl(F_OFD_GETLK);
  lease -- fcntl(F_SETLEASE, F_RDLCK) (taken only: a lease is seen through its breaks)."""
import json
import os
import struct

BITS = 32
CHANNELS = ("flock", "posix", "ofd")


def carriers(directory):
    """The first BITS regular files under `directory`, in sorted order, one path per file (a
    lock belongs to the file, which a hard link would name twice)."""
    found, inodes = [], set()
    for root, dirs, files in os.walk(directory):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            stat = os.stat(path)
            if (stat.st_dev, stat.st_ino) not in inodes:
                inodes.add((stat.st_dev, stat.st_ino))
                found.append(path)
    return found[:BITS]


def flock_struct(kind):
    """A struct flock of `kind` over the whole file."""
    return struct.pack("hhqqi4x", kind, os.SEEK_SET, 0, 0, 0)


def lock_type(packed):
    """The l_type of a struct flock."""
    return struct.unpack("hhqqi4x", packed)[0]


def write_report(name, report):
    """Write `report` as JSON to `name` in the working directory (whole, or not at all)."""
    with open(name + ".tmp", "w") as f:
        json.dump(report, f)
    os.replace(name + ".tmp", name)
