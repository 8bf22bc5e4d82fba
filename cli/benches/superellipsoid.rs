//! Criterion benchmarks of superellipsoid pairs (`cargo bench`): demcontact's common-normal kernel
//! beside parry3d-f64's GJK/EPA on the same closed-form support maps, on the interval-3 pairs of
//! the validation protocol (series 1 separated, series 2 penetrating, cold) and on DEM-like
//! warm-started sequences. f64 throughout. One iteration is one pass over the whole workload.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use demcontact_cli::bench::superellipsoids::Workload;
use std::hint::black_box;

fn superellipsoid_pairs(c: &mut Criterion) {
    for (name, workload, warm) in [
        ("series1_cold", Workload::series1(), false),
        ("series2_cold", Workload::series2(), false),
        ("dem_like_warm", Workload::dem_like(), true),
        ("deep_ellipsoids_cold", Workload::deep_ellipsoids(), false),
        (
            "deep_ellipsoids_warm",
            Workload::deep_ellipsoid_sequences(),
            true,
        ),
    ] {
        let mut group = c.benchmark_group(format!("superellipsoid_{name}"));
        group.throughput(Throughput::Elements(workload.len() as u64));
        group.sample_size(20);
        group.bench_function("demcontact", |b| b.iter(|| black_box(workload.ours(warm))));
        group.bench_function("parry3d_f64_gjk_epa", |b| {
            b.iter(|| black_box(workload.parry(warm)))
        });
        group.finish();
    }
}

criterion_group!(benches, superellipsoid_pairs);
criterion_main!(benches);
