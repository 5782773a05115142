//! Pinning a worker thread to one core (`sched_setaffinity`): the bot processes it starts
//! inherit the pin, so a match's referee work and its bots share that core, and their cpuset
//! (`seat::cgroup`) is made of the cores the starting thread may run on.

/// The cores this process may run on, in order.
pub fn allowed_cores() -> Vec<usize> {
    // SAFETY: sched_getaffinity fills the zeroed set we own.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

/// Pins the calling thread to `core`. Failure (a core taken away meanwhile) leaves it unpinned.
pub fn pin_current_thread(core: usize) {
    pin_process(0, core);
}

/// Pins process (or thread) `pid` to `core`; 0 is the calling thread.
pub fn pin_process(pid: i32, core: usize) {
    // SAFETY: sched_setaffinity reads the set we own.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(core, &mut set);
        libc::sched_setaffinity(pid, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}
