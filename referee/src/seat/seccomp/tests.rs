//! The filter at work: processes made under it (Python scripts, and on x86-64 a forked child)
//! and what each refused call gives them.

use super::numbers::X32_BIT;
use super::*;
use std::os::unix::process::CommandExt;
use std::process::Command;

/// What the scripts of [`filtered`] may call: `call(f)` runs `f` and gives "ok" or the
/// errno of its `OSError`; `errno(rc)` gives "ok" for a return code of 0 or more, else the
/// errno of a `libc` call (made through ctypes).
const HELPERS: &str = r#"
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
def call(f):
    try:
        f()
        return "ok"
    except OSError as e:
        return str(e.errno)
def errno(rc):
    return str(ctypes.get_errno()) if rc < 0 else "ok"
"#;

/// Runs the Python `script`, after [`HELPERS`], with the filter installed before exec;
/// returns its stdout.
fn filtered(script: &str) -> String {
    let filter = BotFilter::native().expect("a supported architecture");
    let mut command = Command::new("python3");
    command.args(["-c", &format!("{HELPERS}{script}")]);
    // SAFETY: install is async-signal-safe.
    unsafe {
        command.pre_exec(|| filter.install());
    }
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn locks_fail_with_eperm_and_flock_takes_nothing() {
    let script = r#"
import fcntl, os, struct
a = open("/proc/self/exe", "rb")
b = open("/proc/self/exe", "rb")
lk = struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 0, 0)
print(call(lambda: fcntl.flock(a, fcntl.LOCK_EX)))
# Nothing was taken: a second description takes the same lock at once.
print(call(lambda: fcntl.flock(b, fcntl.LOCK_EX | fcntl.LOCK_NB)))
for cmd in [fcntl.F_SETLK, fcntl.F_SETLKW, fcntl.F_GETLK, fcntl.F_OFD_SETLK, fcntl.F_OFD_SETLKW, fcntl.F_OFD_GETLK]:
    print(call(lambda: fcntl.fcntl(a, cmd, lk)))
print(call(lambda: fcntl.fcntl(a, fcntl.F_SETLEASE, fcntl.F_RDLCK)))
print(call(lambda: fcntl.fcntl(os.open("/", os.O_RDONLY), fcntl.F_NOTIFY, fcntl.DN_ACCESS)))
# Other commands pass.
print(call(lambda: fcntl.fcntl(a, fcntl.F_GETFD)))
print(call(lambda: fcntl.fcntl(a, fcntl.F_GETLEASE)))
"#;
    let eperm = DENIED_ERRNO.to_string();
    let mut expected = vec!["ok", "ok"];
    expected.extend([eperm.as_str(); 8]);
    expected.extend(["ok", "ok"]);
    assert_eq!(filtered(script).lines().collect::<Vec<_>>(), expected);
}

/// The other ways into the kernel on x86-64: an x32 call is filtered like a 64-bit one, and
/// a 32-bit call (`int 0x80`, whose numbers the filter does not know) kills the process.
#[cfg(target_arch = "x86_64")]
#[test]
fn an_x32_call_is_filtered_and_a_32_bit_call_kills() {
    let filter = BotFilter::native().expect("x86-64 has a filter");
    // SAFETY: the child makes async-signal-safe calls only, on a filter built before.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0);
    if pid == 0 {
        // SAFETY: system calls on constant arguments; the child never returns.
        unsafe {
            // No core file for the SIGSYS below.
            let none = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &none);
            if filter.install().is_err() {
                libc::_exit(2);
            }
            // fcntl(0, F_SETLK, NULL) by its x32 number: the filter's EPERM, not the
            // kernel's ENOSYS (x32 is off on most kernels) or EFAULT.
            let rc = libc::syscall(X32_BIT | libc::SYS_fcntl, 0, libc::F_SETLK, 0);
            if rc != -1 || *libc::__errno_location() != DENIED_ERRNO {
                libc::_exit(3);
            }
            // getpid, by its 32-bit number.
            std::arch::asm!("int 0x80", inout("eax") 20 => _, out("r8") _, out("r9") _,
                out("r10") _, out("r11") _);
            libc::_exit(4);
        }
    }
    let mut status = 0;
    // SAFETY: waits for the child above.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    assert!(
        libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGSYS,
        "wait status {status:#x}"
    );
}

/// What `statvfs`, `df` and `shutil.disk_usage` get: `ENOSYS`; the free-space map of ext4
/// (which answers it without privileges) is refused; other ioctls pass.
#[test]
fn file_system_counters_fail_with_enosys() {
    let script = r#"
import fcntl, os, shutil, termios
buf = ctypes.create_string_buffer(512)
print(call(lambda: os.statvfs("/")))
print(call(lambda: os.fstatvfs(0)))
print(call(lambda: shutil.disk_usage("/")))
print(errno(libc.syscall(ctypes.c_long(@STATFS@), b"/", buf)))
print(errno(libc.syscall(ctypes.c_long(@FSTATFS@), 0, buf)))
print(errno(libc.syscall(ctypes.c_long(@QUOTACTL@), 0x800007, b"/dev/null", 0, buf)))
print(errno(libc.syscall(ctypes.c_long(@QUOTACTL_FD@), 0, 0x800007, 0, buf)))
# glibc's pathconf falls back to its defaults on ENOSYS.
print(os.pathconf("/", "PC_NAME_MAX") > 0)
fd = os.open("/proc/self/exe", os.O_RDONLY)
print(errno(libc.ioctl(fd, ctypes.c_ulong(@GETFSMAP@), buf)))
# Another ioctl passes (the kernel's own ENOTTY).
print(call(lambda: fcntl.ioctl(fd, termios.TCGETS, bytes(64))))
"#
    .replace("@STATFS@", &libc::SYS_statfs.to_string())
    .replace("@FSTATFS@", &libc::SYS_fstatfs.to_string())
    .replace("@QUOTACTL_FD@", &libc::SYS_quotactl_fd.to_string())
    .replace("@QUOTACTL@", &libc::SYS_quotactl.to_string())
    .replace("@GETFSMAP@", &DENIED_IOCTL[0].0.to_string());
    let enosys = HIDDEN_ERRNO.to_string();
    let mut expected = vec![enosys.as_str(); 7];
    let eperm = DENIED_ERRNO.to_string();
    let enotty = libc::ENOTTY.to_string();
    expected.extend(["True", eperm.as_str(), enotty.as_str()]);
    assert_eq!(filtered(&script).lines().collect::<Vec<_>>(), expected);
}

/// A shared futex wake fails with `EPERM`, a private one runs; threads still join (the
/// kernel, not the filter, wakes a thread's joiner), and futex2's wake is held to the same
/// rule, its requeue denied.
#[test]
fn shared_futex_wakes_fail_with_eperm_and_private_ones_and_joins_run() {
    let script = r#"
import threading
word = ctypes.c_uint32(0)
addr = ctypes.addressof(word)
FUTEX = @FUTEX@
for command in (1, 3, 4, 5, 10):
    print(errno(libc.syscall(ctypes.c_long(FUTEX), ctypes.c_void_p(addr), command, 1, None, ctypes.c_void_p(addr), 0)))
print(errno(libc.syscall(ctypes.c_long(FUTEX), ctypes.c_void_p(addr), 1 | 256, 1, None, None, 0)))
print(errno(libc.syscall(ctypes.c_long(FUTEX), ctypes.c_void_p(addr), 1 | 128, 1, None, None, 0)))
print(errno(libc.syscall(ctypes.c_long(FUTEX), ctypes.c_void_p(addr), 10 | 128, 1, None, None, 0xffffffff)))
t = threading.Thread(target=lambda: None)
t.start(); t.join()
print("joined")
# futex_wake(uaddr, mask, nr, flags): FUTEX2_SIZE_U32 is 2, FUTEX2_PRIVATE 128.
print(errno(libc.syscall(ctypes.c_long(454), ctypes.c_void_p(addr), ctypes.c_ulong(0xffffffff), 1, 2)))
print(errno(libc.syscall(ctypes.c_long(454), ctypes.c_void_p(addr), ctypes.c_ulong(0xffffffff), 1, 2 | 128)))
print(errno(libc.syscall(ctypes.c_long(456), None, 0, 1, 0)))
"#
    .replace("@FUTEX@", &libc::SYS_futex.to_string());
    let eperm = DENIED_ERRNO.to_string();
    let mut expected = vec![eperm.as_str(); 6];
    expected.extend(["ok", "ok", "joined", eperm.as_str(), "ok", eperm.as_str()]);
    assert_eq!(filtered(&script).lines().collect::<Vec<_>>(), expected);
}

/// io_uring is absent under the filter, as on a kernel without it: `io_uring_setup` (which
/// works here unfiltered) and the two others fail with `ENOSYS`.
#[test]
fn io_uring_is_absent() {
    let script = r#"
params = ctypes.create_string_buffer(120)
print(errno(libc.syscall(ctypes.c_long(@SETUP@), 4, params)))
print(errno(libc.syscall(ctypes.c_long(@ENTER@), 0, 0, 0, 0, 0, 0)))
print(errno(libc.syscall(ctypes.c_long(@REGISTER@), 0, 0, 0, 0)))
"#
    .replace("@SETUP@", &libc::SYS_io_uring_setup.to_string())
    .replace("@ENTER@", &libc::SYS_io_uring_enter.to_string())
    .replace("@REGISTER@", &libc::SYS_io_uring_register.to_string());
    let enosys = HIDDEN_ERRNO.to_string();
    assert_eq!(
        filtered(&script).lines().collect::<Vec<_>>(),
        vec![enosys.as_str(); 3]
    );
}

#[test]
fn notifications_fail_with_eperm_and_the_upper_half_of_a_command_changes_nothing() {
    let script = r#"
import fcntl
print(errno(libc.inotify_init1(0)))
print(errno(libc.syscall(ctypes.c_long(FANOTIFY), 0, 0)))
# fcntl(0, F_GETLK | 1 << 32, NULL): the kernel reads F_GETLK; so does the filter.
print(errno(libc.syscall(ctypes.c_long(FCNTL), 0, ctypes.c_long(fcntl.F_GETLK | 1 << 32), None)))
"#
    .replace("FANOTIFY", &libc::SYS_fanotify_init.to_string())
    .replace("FCNTL", &libc::SYS_fcntl.to_string());
    let eperm = DENIED_ERRNO.to_string();
    assert_eq!(
        filtered(&script).lines().collect::<Vec<_>>(),
        [eperm.as_str(); 3]
    );
}
