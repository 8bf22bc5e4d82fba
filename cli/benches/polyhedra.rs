//! Criterion benchmarks of convex-polyhedron pairs (`cargo bench`): demcontact's Fast Direct
//! Search beside parry3d-f64's `query::contact` (prediction 0) on `ConvexPolyhedron` and, for
//! cubes, `Cuboid`, and parry's persistent `contact_manifolds` path, on the workloads of
//! `demcontact bench` (cold touching pairs, warm sliding sequences, warm near-apart sequences).
//! f64 throughout. One iteration is one pass over the whole workload.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use demcontact_cli::bench::polyhedra::Workload;
use std::hint::black_box;

fn polyhedron_pairs(c: &mut Criterion) {
    // `cargo test --all-targets` runs this target once, unoptimised, without `--bench`: the cube
    // workloads check that the harness runs; the random ones (hundreds of hulls and the
    // brute-force reference) are for `cargo bench` only.
    let benching = std::env::args().any(|a| a == "--bench");
    let mut workloads = vec![
        ("cold_touching_cubes", Workload::cold_cubes(), false),
        ("warm_sliding_cubes", Workload::sliding_cubes(), true),
        ("warm_near_apart_cubes", Workload::near_cubes(), true),
    ];
    if benching {
        workloads.extend([
            ("cold_touching_random", Workload::cold_random(), false),
            ("warm_sliding_random", Workload::sliding_random(), true),
            ("warm_near_apart_random", Workload::near_random(), true),
        ]);
    }
    for (name, workload, warm) in workloads {
        let mut group = c.benchmark_group(format!("polyhedron_{name}"));
        group.throughput(Throughput::Elements(workload.len() as u64));
        group.sample_size(20);
        group.bench_function("demcontact", |b| b.iter(|| black_box(workload.ours(warm))));
        group.bench_function("parry3d_f64_contact_convex_polyhedron", |b| {
            b.iter(|| black_box(workload.parry(false)))
        });
        if workload.has_cuboids() {
            group.bench_function("parry3d_f64_contact_cuboid", |b| {
                b.iter(|| black_box(workload.parry(true)))
            });
        }
        if warm {
            group.bench_function("parry3d_f64_contact_manifolds_persistent", |b| {
                b.iter(|| black_box(workload.parry_manifolds(workload.has_cuboids())))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, polyhedron_pairs);
criterion_main!(benches);
