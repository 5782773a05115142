//! The numbers of the system calls the filter names, on each architecture seccompiler builds
//! programs for.

use seccompiler::TargetArch;

/// The numbers of the system calls the filter names, on one architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Numbers {
    pub(super) fcntl: i64,
    pub(super) flock: i64,
    pub(super) ioctl: i64,
    pub(super) statfs: i64,
    pub(super) fstatfs: i64,
    /// Absent from the generic table.
    pub(super) ustat: Option<i64>,
    pub(super) quotactl: i64,
    pub(super) quotactl_fd: i64,
    /// `io_uring_setup`, `io_uring_enter`, `io_uring_register`.
    pub(super) io_uring: [i64; 3],
    pub(super) futex: i64,
    /// The futex2 calls that wake (Linux 6.7): `futex_wake`, `futex_requeue`.
    pub(super) futex_wake: i64,
    pub(super) futex_requeue: i64,
    /// Absent from the generic table (arm64, RISC-V), which has `inotify_init1` only.
    pub(super) inotify_init: Option<i64>,
    pub(super) inotify_init1: i64,
    pub(super) fanotify_init: i64,
    /// Whether the x32 numbers (the same, with [`X32_BIT`]) exist and are denied too.
    pub(super) x32: bool,
    /// The x32 number of `ioctl`, which has one of its own (with [`X32_BIT`]).
    pub(super) ioctl_x32: Option<i64>,
}

impl Numbers {
    /// `calls` and, where they exist, their x32 numbers.
    pub(super) fn with_x32(&self, calls: &[i64]) -> Vec<i64> {
        let mut all = calls.to_vec();
        if self.x32 {
            all.extend(calls.iter().map(|c| c | X32_BIT));
        }
        all
    }
}

/// The bit that marks an x32 system call on x86-64.
pub(super) const X32_BIT: i64 = 0x4000_0000;

/// x86-64 (`arch/x86/entry/syscalls/syscall_64.tbl`; x32 uses the same numbers for these, but
/// for `ioctl`).
const X86_64: Numbers = Numbers {
    fcntl: 72,
    flock: 73,
    ioctl: 16,
    statfs: 137,
    fstatfs: 138,
    ustat: Some(136),
    quotactl: 179,
    quotactl_fd: 443,
    io_uring: [425, 426, 427],
    futex: 202,
    futex_wake: 454,
    futex_requeue: 456,
    inotify_init: Some(253),
    inotify_init1: 294,
    fanotify_init: 300,
    x32: true,
    ioctl_x32: Some(514),
};

/// The generic table (`include/uapi/asm-generic/unistd.h`) of arm64 and RISC-V.
const GENERIC: Numbers = Numbers {
    fcntl: 25,
    flock: 32,
    ioctl: 29,
    statfs: 43,
    fstatfs: 44,
    ustat: None,
    quotactl: 60,
    quotactl_fd: 443,
    io_uring: [425, 426, 427],
    futex: 98,
    futex_wake: 454,
    futex_requeue: 456,
    inotify_init: None,
    inotify_init1: 26,
    fanotify_init: 262,
    x32: false,
    ioctl_x32: None,
};

pub(super) fn numbers(arch: TargetArch) -> Numbers {
    match arch {
        TargetArch::x86_64 => X86_64,
        TargetArch::aarch64 | TargetArch::riscv64 => GENERIC,
    }
}

/// The architecture the referee runs on, if seccompiler can build programs for it.
pub(super) fn native_arch() -> Option<TargetArch> {
    if cfg!(target_arch = "x86_64") {
        Some(TargetArch::x86_64)
    } else if cfg!(target_arch = "aarch64") {
        Some(TargetArch::aarch64)
    } else if cfg!(target_arch = "riscv64") {
        Some(TargetArch::riscv64)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_native_numbers_are_libcs() {
        let Some(arch) = native_arch() else {
            return;
        };
        let n = numbers(arch);
        assert_eq!(n.fcntl, libc::SYS_fcntl);
        assert_eq!(n.flock, libc::SYS_flock);
        assert_eq!(n.inotify_init1, libc::SYS_inotify_init1);
        assert_eq!(n.fanotify_init, libc::SYS_fanotify_init);
        assert_eq!(n.ioctl, libc::SYS_ioctl);
        assert_eq!(n.statfs, libc::SYS_statfs);
        assert_eq!(n.fstatfs, libc::SYS_fstatfs);
        assert_eq!(n.quotactl, libc::SYS_quotactl);
        assert_eq!(n.quotactl_fd, libc::SYS_quotactl_fd);
        assert_eq!(n.futex, libc::SYS_futex);
        assert_eq!(n.futex_wake, 454);
        assert_eq!(n.futex_requeue, 456);
        assert_eq!(
            n.io_uring,
            [
                libc::SYS_io_uring_setup,
                libc::SYS_io_uring_enter,
                libc::SYS_io_uring_register
            ]
        );
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(n.inotify_init, Some(libc::SYS_inotify_init));
            assert_eq!(n.ustat, Some(libc::SYS_ustat));
        }
    }
}
