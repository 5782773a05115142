//! The three BPF programs of the filter: built once per run from the refusals and the
//! architecture's numbers, installed in each bot's child between fork and exec.

use super::numbers::{Numbers, X32_BIT, native_arch, numbers};
use super::refusals::{
    DENIED_ERRNO, DENIED_FCNTL, DENIED_IOCTL, DENIED_SHARED_FUTEX, FUTEX_CLOCK_REALTIME,
    FUTEX_PRIVATE_FLAG, HIDDEN_ERRNO,
};
use seccompiler::{
    BackendError, BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition,
    SeccompFilter, SeccompRule, TargetArch,
};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Why the filter could not be built.
#[derive(Debug, thiserror::Error)]
#[error("cannot build the bots' system-call filter")]
pub struct FilterError(#[source] BackendError);

/// The three BPF programs every bot process gets, ready to install.
#[derive(Debug)]
pub struct BotFilter {
    /// Fails record locks, leases, notifications, shared futex wakes and the ioctls of
    /// [`DENIED_IOCTL`] with [`DENIED_ERRNO`].
    deny: BpfProgram,
    /// Fails the calls of [`HIDDEN_CALLS`](super::HIDDEN_CALLS) and
    /// [`ABSENT_CALLS`](super::ABSENT_CALLS) with [`HIDDEN_ERRNO`].
    hide: BpfProgram,
    /// Makes `flock` succeed without doing anything.
    no_op: BpfProgram,
}

/// The rules of one program: for each call number, the conditions on its arguments under which
/// the program's action applies (every call of the number when there are none).
type Rules = BTreeMap<i64, Vec<SeccompRule>>;

/// The rules that match a call whose argument `index`, read as a 32-bit value, is one of
/// `values`.
fn argument_is_one_of(index: u8, values: &[u32]) -> Result<Vec<SeccompRule>, FilterError> {
    values
        .iter()
        .map(|&value| {
            let condition = SeccompCondition::new(
                index,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::Eq,
                value.into(),
            )?;
            SeccompRule::new(vec![condition])
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(FilterError)
}

/// The rules of the calls that fail with [`DENIED_ERRNO`]: record locks, leases and
/// notifications through `fcntl`, the ioctls of [`DENIED_IOCTL`], shared futex wakes, and the
/// file-change notifications.
fn deny_rules(n: &Numbers) -> Result<Rules, FilterError> {
    let mut deny = Rules::new();
    // Double words: the kernel reads an fcntl command and an ioctl request as 32-bit
    // ints, so the upper half of the register must not let a call through.
    let commands = DENIED_FCNTL.map(|(command, _)| command as u32);
    for fcntl in n.with_x32(&[n.fcntl]) {
        deny.insert(fcntl, argument_is_one_of(1, &commands)?);
    }
    let requests = DENIED_IOCTL.map(|(request, _)| request);
    for ioctl in n
        .with_x32(&[n.ioctl])
        .into_iter()
        .chain(n.ioctl_x32.map(|c| c | X32_BIT))
    {
        deny.insert(ioctl, argument_is_one_of(1, &requests)?);
    }
    let shared_wakes = shared_futex_wakes()?;
    for futex in n.with_x32(&[n.futex]) {
        deny.insert(futex, shared_wakes.clone());
    }
    let shared_wake2 = shared_futex2_wake()?;
    for call in n.with_x32(&[n.futex_wake]) {
        deny.insert(call, vec![shared_wake2.clone()]);
    }
    // futex2's requeue reads its futexes' flags from memory, which a filter cannot see.
    for call in n.with_x32(&[n.futex_requeue]) {
        deny.insert(call, Vec::new());
    }
    let notify: Vec<i64> = n
        .inotify_init
        .into_iter()
        .chain([n.inotify_init1, n.fanotify_init])
        .collect();
    for call in n.with_x32(&notify) {
        deny.insert(call, Vec::new());
    }
    Ok(deny)
}

/// The rules of a shared wake by `futex`: the command's bits but FUTEX_CLOCK_REALTIME, with
/// FUTEX_PRIVATE_FLAG clear, are one of the waking commands.
fn shared_futex_wakes() -> Result<Vec<SeccompRule>, FilterError> {
    DENIED_SHARED_FUTEX
        .iter()
        .map(|&(command, _)| {
            SeccompCondition::new(
                1,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::MaskedEq((!FUTEX_CLOCK_REALTIME).into()),
                command.into(),
            )
            .and_then(|condition| SeccompRule::new(vec![condition]))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(FilterError)
}

/// The rule of a shared wake by futex2's `futex_wake`: without FUTEX2_PRIVATE in its flags
/// (the fourth argument).
fn shared_futex2_wake() -> Result<SeccompRule, FilterError> {
    SeccompCondition::new(
        3,
        SeccompCmpArgLen::Dword,
        SeccompCmpOp::MaskedEq(FUTEX_PRIVATE_FLAG.into()),
        0,
    )
    .and_then(|condition| SeccompRule::new(vec![condition]))
    .map_err(FilterError)
}

/// The rules that match every call of `calls`, whatever its arguments.
fn every_call(calls: Vec<i64>) -> Rules {
    calls.into_iter().map(|call| (call, Vec::new())).collect()
}

impl BotFilter {
    /// The filter for the architecture the referee runs on, built on first use; `None` on an
    /// architecture seccompiler has no programs for (anything but x86-64, arm64 and RISC-V 64),
    /// where bots run unfiltered.
    pub fn native() -> Option<&'static BotFilter> {
        static FILTER: OnceLock<Option<BotFilter>> = OnceLock::new();
        FILTER
            .get_or_init(|| {
                native_arch().map(|arch| {
                    BotFilter::build(arch).expect("the filter's rules are valid (unit-tested)")
                })
            })
            .as_ref()
    }

    /// The filter for `arch`.
    ///
    /// # Errors
    /// When seccompiler refuses the rules (it does not: the tests build every architecture).
    pub fn build(arch: TargetArch) -> Result<BotFilter, FilterError> {
        let n = numbers(arch);
        let deny = deny_rules(&n)?;
        let hidden: Vec<i64> = [n.statfs, n.fstatfs, n.quotactl, n.quotactl_fd]
            .into_iter()
            .chain(n.ustat)
            .chain(n.io_uring)
            .collect();
        let hide = every_call(n.with_x32(&hidden));
        let no_op = every_call(n.with_x32(&[n.flock]));
        let program = |rules, action| -> Result<BpfProgram, FilterError> {
            SeccompFilter::new(rules, SeccompAction::Allow, action, arch)
                .and_then(BpfProgram::try_from)
                .map_err(FilterError)
        };
        Ok(BotFilter {
            deny: program(deny, SeccompAction::Errno(DENIED_ERRNO as u32))?,
            hide: program(hide, SeccompAction::Errno(HIDDEN_ERRNO as u32))?,
            no_op: program(no_op, SeccompAction::Errno(0))?,
        })
    }

    /// Installs the filter on the calling thread, for good: sets `no_new_privs` (which an
    /// unprivileged process needs to install a filter, and which keeps a setuid program from
    /// gaining privileges), then loads the three programs.
    ///
    /// Async-signal-safe (two system calls, no allocation), so it may run between fork and
    /// exec.
    ///
    /// # Errors
    /// The system error of `prctl` or `seccomp` (a kernel without `CONFIG_SECCOMP_FILTER`).
    pub fn install(&self) -> std::io::Result<()> {
        // SAFETY: prctl with constant arguments changes only this thread's flags.
        if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        for program in [&self.deny, &self.hide, &self.no_op] {
            let fprog = libc::sock_fprog {
                len: program.len() as libc::c_ushort,
                // seccompiler's `sock_filter` is `#[repr(C)]` with the kernel's layout, as
                // libc's is (the size is checked below); the kernel only reads it.
                filter: program.as_ptr().cast::<libc::sock_filter>().cast_mut(),
            };
            // SAFETY: the program outlives the call, which copies it into the kernel.
            let rc = unsafe {
                libc::syscall(
                    libc::SYS_seccomp,
                    libc::SECCOMP_SET_MODE_FILTER,
                    0,
                    &raw const fprog,
                )
            };
            if rc != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// The number of BPF instructions of the three programs.
    pub fn instructions(&self) -> usize {
        self.deny.len() + self.hide.len() + self.no_op.len()
    }
}

const _: () = assert!(
    std::mem::size_of::<seccompiler::sock_filter>() == std::mem::size_of::<libc::sock_filter>()
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_architecture_builds() {
        for arch in [TargetArch::x86_64, TargetArch::aarch64, TargetArch::riscv64] {
            let filter = BotFilter::build(arch).unwrap();
            // 360 on x86-64 (its x32 numbers double the rules); far below the kernel's 4,096.
            assert!(filter.instructions() < 400, "{arch:?}: {filter:?}");
        }
    }
}
