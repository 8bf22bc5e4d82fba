//! Criterion benchmarks of the broad phase (`cargo bench --bench broad`): Munjiza's direct checking
//! beside the sorted cell list, and the cell list alone up to 10^6 bodies, on the scenes of
//! `demcontact bench --only broad`. One iteration is one full search (skin 0).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use demcontact::broad::{direct_checking_spheres, Bounds, BroadPhase};
use demcontact_cli::bench::broad::FAMILIES;
use demcontact_cli::broad_scenes;
use std::hint::black_box;

fn broad_phase(c: &mut Criterion) {
    // `cargo test --all-targets` runs this target once, unoptimised, without `--bench`: only tiny
    // scenes there, to check that the harness runs; the large ones are for `cargo bench`.
    let benching = std::env::args().any(|a| a == "--bench");
    let (crossover, scaling): (&[usize], &[usize]) = if benching {
        (
            &[1_000, 2_000, 5_000, 10_000],
            &[1_000, 10_000, 100_000, 1_000_000],
        )
    } else {
        (&[100], &[100])
    };
    let mut group = c.benchmark_group("broad_direct_vs_cell_list");
    group.sample_size(10);
    for &n in crossover {
        let spheres = broad_scenes::uniform(n as u64, n, 0.1, FAMILIES[0].sizes, [1.0; 3]);
        let centres: Vec<[f64; 3]> = spheres.iter().map(|s| s.centre).collect();
        let d = 2.0 * FAMILIES[0].sizes.largest();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("direct_checking", n), &n, |b, _| {
            b.iter(|| black_box(direct_checking_spheres(&centres, d)))
        });
        let mut broad = BroadPhase::new(0.0).unwrap();
        group.bench_with_input(BenchmarkId::new("cell_list", n), &n, |b, _| {
            b.iter(|| black_box(broad.update(Bounds::Spheres(&spheres)).unwrap()))
        });
    }
    group.finish();
    for family in &FAMILIES {
        let mut group = c.benchmark_group(format!("broad_cell_list_{}", family.name));
        group.sample_size(10);
        for &n in scaling {
            let spheres =
                broad_scenes::uniform(7 + n as u64, n, family.packing, family.sizes, [1.0; 3]);
            let mut broad = BroadPhase::new(0.0).unwrap();
            group.throughput(Throughput::Elements(n as u64));
            group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
                b.iter(|| black_box(broad.update(Bounds::Spheres(&spheres)).unwrap()))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, broad_phase);
criterion_main!(benches);
