//! Criterion benchmarks of potential particle pairs (`cargo bench`; Boon, Houlsby & Utili 2013):
//! our SOCP solver cold and warm, clarabel 0.11 on the same eq. (6) programs, and the sphere pair,
//! on the workloads of `demcontact bench --only potential` (2 rounded cubes, 2 rounded tetrahedra).
//! One iteration is one pass over the whole workload.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use demcontact::shapes::{Shape, Sphere};
use demcontact_cli::bench::potential::{Workload, CLARABEL_TIMED, PAIRS, SEQUENCES, STEPS};
use std::hint::black_box;

fn potential_pairs(c: &mut Criterion) {
    // `cargo test --all-targets` runs this target once, unoptimised, without `--bench`: tiny
    // workloads check that the harness runs; the full ones are for `cargo bench`.
    let benching = std::env::args().any(|a| a == "--bench");
    let (pairs, sequences, steps, clarabel) = if benching {
        (PAIRS, SEQUENCES, STEPS, CLARABEL_TIMED)
    } else {
        (4, 2, 5, 2)
    };
    let ball = Shape::Sphere(Sphere::new(0.5).expect("a sphere"));
    for (name, workload) in [
        ("cubes", Workload::cubes(pairs, sequences, steps)),
        ("tetrahedra", Workload::tetrahedra(pairs, sequences, steps)),
    ] {
        let mut group = c.benchmark_group(format!("potential_{name}"));
        group.sample_size(20);
        group.throughput(Throughput::Elements(workload.cold_pairs() as u64));
        group.bench_function("ours_cold", |b| b.iter(|| black_box(workload.ours_cold())));
        group.bench_function("sphere_pair", |b| b.iter(|| workload.spheres(&ball)));
        group.throughput(Throughput::Elements(workload.warm_queries() as u64));
        group.bench_function("ours_warm", |b| {
            b.iter(|| black_box(workload.ours_warm(steps)))
        });
        group.throughput(Throughput::Elements(clarabel as u64));
        group.bench_function("clarabel", |b| {
            b.iter(|| black_box(workload.clarabel(clarabel)))
        });
        group.finish();
    }
}

criterion_group!(benches, potential_pairs);
criterion_main!(benches);
