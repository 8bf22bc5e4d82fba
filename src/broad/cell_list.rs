//! The linear-time search: a sorted cell list with one level per body size class.
//!
//! # Why a sorted cell list
//!
//! Munjiza & Andrews' NBS (no binary search) reaches O(N) time and memory by sorting bodies into
//! singly-linked lists of rows and cells whose headers are allocated only for occupied rows. A
//! sorted cell list has the same two properties and suits a cache better: every body gets the key of
//! the cell holding its box's lower corner, `key = (z * ny + y) * nx + x` packed in one `u64`, the
//! bodies are sorted by key with a radix sort (linear time), and each row of cells is then one
//! contiguous run of the sorted array. Nothing is allocated per cell, so memory is O(N) whatever the
//! extent of the empty space (a hopper whose particles spread over a tall domain allocates nothing
//! for the empty cells), and there is no hashing: because a body's neighbour rows have keys that
//! are a fixed offset from its own, the bodies visited in key order find the start of each of their
//! neighbour rows with one cursor per row offset that only moves forward (NBS's idea of never
//! searching), O(1) amortised per body.
//!
//! A cell's edge is at least the largest box it holds (with a relative safety margin of
//! [`CELL_SAFETY`] against round-off), so a body's box reaches at most into the next cell on each
//! axis, and a pair whose boxes overlap lies in neighbouring cells: a body looks at the cells from
//! one below its own lower-corner cell to the one holding its upper corner, at most 3 x 3 x 3, and
//! within its own level only at the rows after its own (each pair is found once).
//!
//! # Polydisperse sizes: levels
//!
//! Bodies are sorted into levels by the largest edge `s` of their box: level `L` has cells of edge
//! `c_L = s_min * 2^L / (1 - CELL_SAFETY)` and holds the bodies with `s_min 2^(L-1) < s <= s_min 2^L`.
//! A pair of bodies is found from the smaller one, searched in the larger one's level, where it
//! still spans at most two cells per axis. Each level `t` sorts the bodies of levels `0..=t` by
//! their cell in level `t`'s grid. **Cost**: time `O(N * L)` and memory `O(N)`, with
//! `L = 1 + ceil(log2(s_max / s_min))` levels: a size ratio of 10 has 5 levels, and each small body
//! is sorted and swept once per level at or above its own (in practice the time grows by much less
//! than `L`, since large bodies are few). At most [`MAX_LEVELS`] levels: bodies smaller than
//! `s_max / 2^(MAX_LEVELS - 1)` share the lowest level (correct; only their cells are larger).
//!
//! A level whose grid would need more than 2^32 cells along one axis or 2^62 cells in all (a domain
//! some 10^18 times the size of its bodies) doubles its cell edge until the keys fit: still
//! correct, only with more bodies per cell.

use super::radix_sort::{bit_width, radix_sort_by_key};
use super::{ensure_indexable, Aabb, BodyPair, BoundingSphere, Bounds};
use crate::error::{ensure_finite, Error, Result};

/// A body's box fills at most `1 - CELL_SAFETY` of its cell's edge, so that round-off in the cell
/// coordinates (at most a few ulps of 2^32 cells) can never move it out of its neighbour cells.
pub const CELL_SAFETY: f64 = 1e-3;
/// Sizes within this relative slack of a level's bound still belong to it.
const LEVEL_SLACK: f64 = 1e-9;
/// The most levels of the polydisperse search.
pub const MAX_LEVELS: u32 = 16;
/// Coordinates are refused beyond this magnitude, so that no extent overflows to infinity.
pub const MAX_COORDINATE: f64 = 1e300;
/// The most cells along one axis of a level's grid (bits of a cell coordinate).
const MAX_AXIS_BITS: u32 = 32;
/// The most bits of a packed cell key.
const MAX_KEY_BITS: u32 = 62;

/// A bounding volume the search can run on: its box for the cells, its own test for the pairs.
pub(crate) trait Volume: Copy + Default {
    /// The volume grown by `margin` on every side.
    fn grown(&self, margin: f64) -> Self;
    /// The box holding the volume.
    fn bounding_box(&self) -> Aabb;
    /// The exact pair test.
    fn touches(&self, other: &Self) -> bool;
}

impl Volume for Aabb {
    fn grown(&self, margin: f64) -> Self {
        self.inflated(margin)
    }
    fn bounding_box(&self) -> Aabb {
        *self
    }
    #[inline(always)]
    fn touches(&self, other: &Self) -> bool {
        self.overlaps(other)
    }
}

impl Volume for BoundingSphere {
    fn grown(&self, margin: f64) -> Self {
        BoundingSphere {
            centre: self.centre,
            radius: self.radius + margin,
        }
    }
    fn bounding_box(&self) -> Aabb {
        Aabb::of_sphere(self.centre, self.radius)
    }
    #[inline(always)]
    fn touches(&self, other: &Self) -> bool {
        self.overlaps(other, 0.0)
    }
}

/// One body in a level's sort: its cell key, its volume, its index, whether it belongs to the level
/// and how many cells its box reaches beyond its lower-corner cell on each axis (0 or 1). The volume
/// travels with the key through the sort, so that the sweep reads memory only in key order.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Entry<V> {
    key: u64,
    volume: V,
    body: u32,
    in_level: bool,
    reach: [u8; 3],
}

/// The per-level arrays of one kind of volume, kept between searches: the bodies sorted by key,
/// the sort's scratch, and the grown volumes when there is a margin.
#[derive(Debug, Default)]
pub(crate) struct Buffers<V> {
    entries: Vec<Entry<V>>,
    scratch: Vec<Entry<V>>,
    grown: Vec<V>,
}

impl<V> Buffers<V> {
    fn heap_bytes(&self) -> usize {
        (self.entries.capacity() + self.scratch.capacity()) * std::mem::size_of::<Entry<V>>()
            + self.grown.capacity() * std::mem::size_of::<V>()
    }
}

/// A level's grid: origin, cell edge and key packing.
#[derive(Debug, Clone, Copy)]
struct Grid {
    origin: [f64; 3],
    /// `1 / cell edge`: cell coordinates by a product (its extra rounding, an ulp, is far inside the
    /// [`CELL_SAFETY`] margin).
    inverse_cell: f64,
    /// Bits of x, and of x and y together, in a key.
    shift_y: u32,
    shift_z: u32,
    /// Bits of a whole key.
    bits: u32,
}

impl Grid {
    /// The grid of cell edge at least `cell` over the boxes' corners `lo`, `hi` (their minima and
    /// maxima), coarsened until its keys fit.
    fn new(lo: [f64; 3], hi: [f64; 3], mut cell: f64) -> Grid {
        loop {
            // Two cells of margin below the lowest corner: every lower-corner cell is >= 1 even
            // after round-off, so that "one cell below" is never negative.
            let origin = [lo[0] - 2.0 * cell, lo[1] - 2.0 * cell, lo[2] - 2.0 * cell];
            // (A count beyond u64 saturates, and so does the margin's `+ 2`: its width, 64,
            // fails the test below and the cell grows.)
            let bits: Vec<u32> = (0..3)
                .map(|k| bit_width((((hi[k] - origin[k]) / cell) as u64).saturating_add(2)))
                .collect();
            if bits.iter().all(|&b| b <= MAX_AXIS_BITS) && bits.iter().sum::<u32>() <= MAX_KEY_BITS
            {
                return Grid {
                    origin,
                    inverse_cell: 1.0 / cell,
                    shift_y: bits[0],
                    shift_z: bits[0] + bits[1],
                    bits: bits.iter().sum(),
                };
            }
            cell *= 2.0;
        }
    }

    /// The cell coordinates of point `p`.
    #[inline(always)]
    fn cell_of(&self, p: &[f64; 3]) -> [u64; 3] {
        [
            ((p[0] - self.origin[0]) * self.inverse_cell) as u64,
            ((p[1] - self.origin[1]) * self.inverse_cell) as u64,
            ((p[2] - self.origin[2]) * self.inverse_cell) as u64,
        ]
    }

    #[inline(always)]
    fn key(&self, c: [u64; 3]) -> u64 {
        (c[2] << self.shift_z) | (c[1] << self.shift_y) | c[0]
    }

    /// The key differences from a cell to the cells `(0, dy - 1, dz - 1)` away, at `3 dz + dy`
    /// (wrapping: a key plus an offset is the neighbour's key).
    fn row_offsets(&self) -> [u64; 9] {
        std::array::from_fn(|r| {
            let (dy, dz) = ((r % 3) as u64, (r / 3) as u64);
            (dy << self.shift_y)
                .wrapping_add(dz << self.shift_z)
                .wrapping_sub((1 << self.shift_y) + (1 << self.shift_z))
        })
    }

    fn unpack(&self, key: u64) -> [u64; 3] {
        [
            key & ((1 << self.shift_y) - 1),
            (key >> self.shift_y) & ((1 << (self.shift_z - self.shift_y)) - 1),
            key >> self.shift_z,
        ]
    }
}

/// The reusable working memory of the search; all of it O(N) (plus the pairs found).
#[derive(Debug, Default)]
pub struct CellList {
    levels: Vec<u8>,
    box_buffers: Buffers<Aabb>,
    sphere_buffers: Buffers<BoundingSphere>,
    found: Vec<u64>,
    found_scratch: Vec<u64>,
}

/// The pairs `[i, j]`, `i < j`, whose bounding volumes, each grown by `margin / 2`, overlap
/// (boxes: closed boxes share a point; spheres: `|c_i - c_j| < r_i + r_j + margin`), sorted by `i`
/// then `j`; exactly the pairs [`super::direct_checking_boxes`] (or the sphere test of
/// [`super::direct_checking_spheres`]) finds. A one-off search; [`CellList::search`] keeps its
/// memory between calls.
///
/// ```
/// use demcontact::broad::{cell_list_pairs, Bounds, BoundingSphere};
/// let spheres = [
///     BoundingSphere::new([0.0, 0.0, 0.0], 0.5)?,
///     BoundingSphere::new([0.9, 0.0, 0.0], 0.5)?,
///     BoundingSphere::new([50.0, 0.0, 0.0], 5.0)?,
/// ];
/// assert_eq!(cell_list_pairs(Bounds::Spheres(&spheres), 0.0)?, vec![[0, 1]]);
/// # Ok::<(), demcontact::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::NonFinite`] for a NaN or infinite coordinate, radius or margin;
/// [`Error::InvalidArgument`] for a negative radius or margin, a box with `lo > hi`, a coordinate
/// beyond [`MAX_COORDINATE`], or more than `u32::MAX` bodies.
pub fn cell_list_pairs(bounds: Bounds, margin: f64) -> Result<Vec<BodyPair>> {
    let mut out = Vec::new();
    CellList::default().search(bounds, margin, &mut out)?;
    Ok(out)
}

impl CellList {
    /// As [`cell_list_pairs`], writing the pairs to `out` (cleared first) and keeping the working
    /// memory for the next call.
    pub fn search(&mut self, bounds: Bounds, margin: f64, out: &mut Vec<BodyPair>) -> Result<()> {
        out.clear();
        check_bounds(bounds)?;
        check_margin(margin)?;
        self.search_checked(bounds, margin, out);
        Ok(())
    }

    /// [`CellList::search`] on volumes and a margin already checked.
    pub(crate) fn search_checked(&mut self, bounds: Bounds, margin: f64, out: &mut Vec<BodyPair>) {
        let half = 0.5 * margin;
        // The buffers are taken out of `self` for the search and put back after it.
        match bounds {
            Bounds::Boxes(given) => {
                let mut buffers = std::mem::take(&mut self.box_buffers);
                self.run(given, half, &mut buffers);
                self.box_buffers = buffers;
            }
            Bounds::Spheres(given) => {
                let mut buffers = std::mem::take(&mut self.sphere_buffers);
                self.run(given, half, &mut buffers);
                self.sphere_buffers = buffers;
            }
        }
        sorted_pairs(
            &mut self.found,
            &mut self.found_scratch,
            pair_shift(bounds.len()),
            out,
        );
    }

    /// Bytes this structure holds on the heap (its buffers' capacities).
    pub fn heap_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        bytes(&self.levels)
            + self.box_buffers.heap_bytes()
            + self.sphere_buffers.heap_bytes()
            + bytes(&self.found)
            + bytes(&self.found_scratch)
    }

    /// The search over `given` grown by `half` on every side; pairs (unsorted) in `self.found`.
    fn run<V: Volume>(&mut self, given: &[V], half: f64, buffers: &mut Buffers<V>) {
        self.found.clear();
        let n = given.len();
        if n < 2 {
            return;
        }
        let mut grown = std::mem::take(&mut buffers.grown);
        let volumes = if half == 0.0 {
            given
        } else {
            grown.clear();
            grown.extend(given.iter().map(|v| v.grown(half)));
            &grown
        };
        let (base, top) = self.assign_levels(volumes);
        for level in 0..=top {
            if top > 0 && !self.levels.contains(&level) {
                continue;
            }
            let cell = base * 2f64.powi(level as i32) / (1.0 - CELL_SAFETY);
            self.sweep_level(level, top, cell, volumes, buffers);
        }
        buffers.grown = grown;
    }

    /// Sorts the bodies into levels by size; returns the base size `s_min` and the top level. When
    /// every body is of level 0 (a monodisperse set), `levels` is left empty.
    fn assign_levels<V: Volume>(&mut self, volumes: &[V]) -> (f64, u8) {
        let (mut smallest, mut largest) = (f64::INFINITY, 0.0f64);
        for v in volumes {
            let s = v.bounding_box().size();
            if s > 0.0 {
                smallest = smallest.min(s);
            }
            largest = largest.max(s);
        }
        // Bodies that are points only (every size 0) go into cells of any edge: take 1. The slack
        // keeps sizes equal but for round-off (a sphere's box edge is 2r to within an ulp or two)
        // in one level.
        let base = if largest > 0.0 {
            smallest.max(largest / 2f64.powi(MAX_LEVELS as i32 - 1)) * (1.0 + LEVEL_SLACK)
        } else {
            1.0
        };
        self.levels.clear();
        if largest <= base {
            return (base, 0);
        }
        let mut top = 0;
        // Powers of two are exact: each comparison is exact.
        let bounds: [f64; MAX_LEVELS as usize] =
            std::array::from_fn(|level| base * 2f64.powi(level as i32));
        for v in volumes {
            let s = v.bounding_box().size();
            let mut level = 0u8;
            // (The loop ends by MAX_LEVELS - 1: no size exceeds `largest <= base 2^(MAX_LEVELS-1)`.)
            while s > bounds[level as usize] {
                level += 1;
            }
            top = top.max(level);
            self.levels.push(level);
        }
        (base, top)
    }

    /// Finds the pairs whose larger body (by level) lies in `level` (of levels up to `top`): every
    /// body of a level up to `level` searched in `level`'s grid of cell edge `cell`.
    fn sweep_level<V: Volume>(
        &mut self,
        level: u8,
        top: u8,
        cell: f64,
        volumes: &[V],
        buffers: &mut Buffers<V>,
    ) {
        let levels = &self.levels;
        let level_of = |body: usize| if top == 0 { 0 } else { levels[body] };
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        for (body, v) in volumes.iter().enumerate() {
            if level_of(body) <= level {
                let b = v.bounding_box();
                for k in 0..3 {
                    lo[k] = lo[k].min(b.lo[k]);
                    hi[k] = hi[k].max(b.hi[k]);
                }
            }
        }
        let grid = Grid::new(lo, hi, cell);
        let Buffers {
            entries, scratch, ..
        } = buffers;
        entries.clear();
        for (body, v) in volumes.iter().enumerate() {
            let l = level_of(body);
            if l <= level {
                let b = v.bounding_box();
                let c = grid.cell_of(&b.lo);
                let top = grid.cell_of(&b.hi);
                // A box fills at most (1 - CELL_SAFETY) of a cell: it reaches one cell further at most.
                debug_assert!((0..3).all(|k| top[k] - c[k] <= 1));
                entries.push(Entry {
                    key: grid.key(c),
                    volume: *v,
                    body: body as u32,
                    in_level: l == level,
                    reach: [
                        (top[0] - c[0]).min(255) as u8,
                        (top[1] - c[1]).min(255) as u8,
                        (top[2] - c[2]).min(255) as u8,
                    ],
                });
            }
        }
        radix_sort_by_key(entries, scratch, grid.bits, |e| e.key);
        let queries = entries.len();
        // The level's own bodies in key order: all of them when there is one level; else a copy (in
        // the sort's scratch, free again) of those of this level. A last target of the largest key
        // ends every row scan and cursor walk without a bounds test.
        let sentinel = Entry {
            key: u64::MAX,
            ..Entry::default()
        };
        let targets: &[Entry<V>] = if top == 0 {
            entries.push(sentinel);
            entries
        } else {
            scratch.clear();
            scratch.extend(entries.iter().filter(|e| e.in_level));
            scratch.push(sentinel);
            scratch
        };
        let sweep = Sweep {
            grid: &grid,
            pair_shift: pair_shift(volumes.len()),
            targets,
        };
        sweep.queries(&entries[..queries], &mut self.found);
    }
}

/// The neighbour rows, as `3 dz + dy` for offsets `dy - 1`, `dz - 1` in y and z, a body searches
/// besides its own, for a body of the level swept (`in_level`: the rows after its own in key
/// order) or of a lower level (every row its box may touch), whose box reaches `reach_y`, `reach_z`
/// (0 or 1) cells beyond its lower-corner cell.
fn neighbour_rows(in_level: bool, reach_y: u8, reach_z: u8) -> &'static [usize] {
    const AFTER: [&[usize]; 4] = [&[], &[5], &[6, 7], &[5, 6, 7, 8]];
    const AROUND: [&[usize]; 4] = [
        &[0, 1, 3, 4],
        &[0, 1, 2, 3, 4, 5],
        &[0, 1, 3, 4, 6, 7],
        &[0, 1, 2, 3, 4, 5, 6, 7, 8],
    ];
    let k = (reach_y + 2 * reach_z) as usize;
    if in_level {
        AFTER[k]
    } else {
        AROUND[k]
    }
}

/// One level's bodies sorted by key, ending with a sentinel of key `u64::MAX`, searched row by row.
struct Sweep<'a, V> {
    grid: &'a Grid,
    /// A pair `(i, j)` is found as `i << pair_shift | j`.
    pair_shift: u32,
    targets: &'a [Entry<V>],
}

impl<V: Volume> Sweep<'_, V> {
    /// Finds the pairs of each query (the bodies of this level and of lower ones, in key order)
    /// with the targets.
    fn queries(&self, queries: &[Entry<V>], found: &mut Vec<u64>) {
        // The key of the first cell of each neighbour row (dy, dz in 0..3 for -1, 0, 1) less the
        // query's key, and one forward-only cursor per row.
        let offsets = self.grid.row_offsets();
        let mut cursors = [0usize; 9];
        let mut own = 0usize;
        for e in queries {
            let query = (e.body, e.volume);
            let reach_x = e.reach[0] as u64;
            if e.in_level {
                // Its own row from the next body on, then the rows after its own: each pair of the
                // level is found once, from the body earlier in key order.
                own += 1;
                self.row(query, own, e.key + reach_x, found);
            }
            if e.reach[1] <= 1 && e.reach[2] <= 1 {
                // The usual case, from a table (no loop bounds to mispredict).
                for &r in neighbour_rows(e.in_level, e.reach[1], e.reach[2]) {
                    let row = e.key.wrapping_add(offsets[r]);
                    let start = self.advance(&mut cursors[r], row - 1);
                    self.row(query, start, row + reach_x, found);
                }
            } else {
                // Never, when cells hold their bodies as they should: every row the box may touch,
                // each found by a binary search.
                let c = self.grid.unpack(e.key);
                let top = [
                    c[0] + reach_x,
                    c[1] + e.reach[1] as u64,
                    c[2] + e.reach[2] as u64,
                ];
                for z in c[2] - 1..=top[2] {
                    for y in c[1] - 1..=top[1] {
                        if e.in_level && (z < c[2] || (z == c[2] && y <= c[1])) {
                            continue;
                        }
                        let first = self.grid.key([c[0] - 1, y, z]);
                        let start = self.targets.partition_point(|t| t.key < first);
                        self.row(query, start, self.grid.key([top[0], y, z]), found);
                    }
                }
            }
        }
    }

    /// Moves a row's forward-only `cursor` to the first target of key at least `first` (the start
    /// keys of a neighbour row grow with the query's key); returns it.
    #[inline(always)]
    fn advance(&self, cursor: &mut usize, first: u64) -> usize {
        // A cursor moves by about one target per query: one step without a branch, then the loop
        // for longer moves (the sentinel stops both).
        *cursor += (self.targets[*cursor].key < first) as usize;
        while self.targets[*cursor].key < first {
            *cursor += 1;
        }
        *cursor
    }

    /// Tests `query` against the targets from index `start` to the last of key at most `last`.
    #[inline(always)]
    fn row(&self, query: (u32, V), start: usize, last: u64, found: &mut Vec<u64>) {
        let (body, volume) = query;
        let mut k = start;
        while self.targets[k].key <= last {
            let target = &self.targets[k];
            if volume.touches(&target.volume) {
                let (i, j) = (body.min(target.body), body.max(target.body));
                found.push(((i as u64) << self.pair_shift) | j as u64);
            }
            k += 1;
        }
    }
}

/// The pairs `found` (`i << shift | j`, `i < j`) in `out`, sorted by `i` then `j`: a radix sort
/// by `i` alone (as few passes as the index bits need), then each body's partners sorted as they
/// are written out.
fn sorted_pairs(found: &mut Vec<u64>, scratch: &mut Vec<u64>, shift: u32, out: &mut Vec<BodyPair>) {
    radix_sort_by_key(found, scratch, shift, |&p| p >> shift);
    out.clear();
    out.reserve(found.len());
    let mask = (1u64 << shift) - 1;
    let mut first = 0;
    for &p in found.iter() {
        let pair = [(p >> shift) as u32, (p & mask) as u32];
        if out.last().is_some_and(|last| last[0] != pair[0]) {
            sort_partners(&mut out[first..]);
            first = out.len();
        }
        out.push(pair);
    }
    sort_partners(&mut out[first..]);
}

/// Sorts one body's pairs by partner: by insertion for the usual handful, else by the standard
/// sort (a large body among many small ones).
fn sort_partners(pairs: &mut [BodyPair]) {
    if pairs.len() > 16 {
        pairs.sort_unstable();
        return;
    }
    for k in 1..pairs.len() {
        let pair = pairs[k];
        let mut m = k;
        while m > 0 && pairs[m - 1][1] > pair[1] {
            pairs[m] = pairs[m - 1];
            m -= 1;
        }
        pairs[m] = pair;
    }
}

/// The bits of a body index among `n` bodies: a pair `(i, j)` packs into `2 * pair_shift(n)` bits,
/// so that sorting the pairs takes as few radix passes as the indices need.
fn pair_shift(n: usize) -> u32 {
    bit_width(n.saturating_sub(1) as u64).max(1)
}

/// Checks every volume: finite, within [`MAX_COORDINATE`], boxes with `lo <= hi`, radii >= 0.
pub(crate) fn check_bounds(bounds: Bounds) -> Result<()> {
    ensure_indexable(bounds.len())?;
    // One pass without a branch per body; the body at fault is looked for only when there is one.
    let beyond = |x: f64| x.is_nan() || x.abs() > MAX_COORDINATE;
    let any_bad = match bounds {
        Bounds::Boxes(boxes) => boxes.iter().fold(false, |bad, b| {
            bad | (0..3).fold(false, |bad, k| {
                bad | beyond(b.lo[k]) | beyond(b.hi[k]) | (b.lo[k] > b.hi[k])
            })
        }),
        Bounds::Spheres(spheres) => spheres.iter().fold(false, |bad, s| {
            bad | beyond(s.centre[0])
                | beyond(s.centre[1])
                | beyond(s.centre[2])
                | beyond(s.radius)
                | (s.radius < 0.0)
        }),
    };
    if !any_bad {
        return Ok(());
    }
    // The message is formatted only for a body at fault.
    let far = |what: &str, i: usize, v: &[f64]| -> Result<()> {
        if v.iter().all(|x| x.abs() <= MAX_COORDINATE) {
            return Ok(());
        }
        ensure_finite(&format!("{what} of body {i}"), v)?;
        Err(Error::InvalidArgument(format!(
            "{what} of body {i} = {v:?}: coordinates beyond {MAX_COORDINATE:e} are not supported"
        )))
    };
    match bounds {
        Bounds::Boxes(boxes) => {
            for (i, b) in boxes.iter().enumerate() {
                far("box lo", i, &b.lo)?;
                far("box hi", i, &b.hi)?;
                if !(b.lo[0] <= b.hi[0] && b.lo[1] <= b.hi[1] && b.lo[2] <= b.hi[2]) {
                    return Err(Error::InvalidArgument(format!(
                        "box of body {i}: lo = {:?} exceeds hi = {:?}",
                        b.lo, b.hi
                    )));
                }
            }
        }
        Bounds::Spheres(spheres) => {
            for (i, s) in spheres.iter().enumerate() {
                far("centre", i, &s.centre)?;
                far("radius", i, &[s.radius])?;
                if s.radius < 0.0 {
                    return Err(Error::InvalidArgument(format!(
                        "radius of body {i} = {}: must be >= 0",
                        s.radius
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Checks a skin or margin: finite and >= 0.
pub(crate) fn check_margin(margin: f64) -> Result<()> {
    ensure_finite("skin", &[margin])?;
    if !(0.0..=MAX_COORDINATE).contains(&margin) {
        return Err(Error::InvalidArgument(format!(
            "skin = {margin}: must be >= 0 (and at most {MAX_COORDINATE:e})"
        )));
    }
    Ok(())
}
