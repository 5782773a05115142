//! Criterion benchmarks of what fair clocks cost per decision: reading a bot's CPU time from
//! its control group (done twice per decision), and freezing and thawing its processes (turn
//! isolation: once each per decision). Needs root and the CPU controllers; says so and measures
//! nothing without them.
//!
//! Run with `cargo bench -p referee --bench cgroup`.

use criterion::{Criterion, criterion_group, criterion_main};
use referee::seat::cgroup::{BotCgroup, GroupLimits, mechanisms};
use std::hint::black_box;
use std::process::{Command, Stdio};

fn cgroup(c: &mut Criterion) {
    let m = mechanisms();
    if !(m.cpu_time && m.freezer) {
        eprintln!("no CPU-time or freezer control group here ({m:?}): nothing measured");
        return;
    }
    let group = BotCgroup::create(&GroupLimits {
        cpu_percent: Some(100),
        ..GroupLimits::default()
    })
    .expect("a group");
    // A sleeping process in the group, as a bot waiting for its next request.
    let mut sleeper = Command::new("sleep")
        .arg("600")
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    group.adopt(sleeper.id());
    c.bench_function("cgroup: read a bot's CPU time", |b| {
        b.iter(|| black_box(group.cpu_time()))
    });
    c.bench_function("cgroup: freeze and thaw a bot", |b| {
        b.iter(|| {
            group.freeze(true);
            group.freeze(false);
        })
    });
    drop(group);
    let _ = sleeper.wait();
}

criterion_group!(benches, cgroup);
criterion_main!(benches);
