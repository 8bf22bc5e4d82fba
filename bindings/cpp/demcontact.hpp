/*
 * demcontact.hpp: a header-only C++11 wrapper over the demcontact C ABI (include/demcontact.h).
 *
 * It adds ownership (Shape releases its handle), exceptions (Error instead of status codes) and a few
 * helpers; it adds no state and no link dependency beyond libdemcontact itself. Works as C++11, 14, 17
 * and 20.
 *
 * Conventions (the same as the C ABI): lengths are in the host's length unit; poses, points and normals
 * are in the world frame; a pose is a position plus a unit quaternion (w, x, y, z) mapping the body frame
 * to the world frame; the contact normal points from body A to body B; penetration > 0 when the bodies
 * overlap, and then touching == 1.
 *
 * Thread safety: as the C ABI. Every function is re-entrant; a Shape's handle is immutable, so one Shape
 * may be used by any number of threads at once (but a Shape object itself must not be moved or
 * destroyed while another thread uses it). Error messages are per thread.
 *
 * Compile with -I<prefix>/include (for demcontact.h) and -I<this directory>; link with -ldemcontact.
 */
#ifndef DEMCONTACT_HPP
#define DEMCONTACT_HPP

#include "demcontact.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace demcontact {

/**
 * A failed demcontact call: the status the C function returned (`DEMCONTACT_STATUS_*`, never
 * `DEMCONTACT_STATUS_OK`) and the library's explanation (the text of `demcontact_last_error_message()`
 * taken right after the failure, on the failing thread).
 *
 * `what()` is "<status name>: <message>", e.g.
 * "DEMCONTACT_STATUS_INVALID_ARGUMENT: radius must be > 0, got -1".
 */
class Error : public std::runtime_error {
 public:
  /// An error with `status` and the library's `message`.
  Error(demcontact_status status, const std::string& message)
      : std::runtime_error(std::string(demcontact_status_name(status)) + ": " + message),
        status_(status),
        message_(message) {}

  /// The `DEMCONTACT_STATUS_*` code of the failure.
  demcontact_status status() const noexcept { return status_; }

  /// The library's message alone (without the status name); may be empty only for an internal bug.
  const std::string& message() const noexcept { return message_; }

  /// The status code's name, e.g. "DEMCONTACT_STATUS_NON_FINITE" (a static string).
  const char* status_name() const noexcept { return demcontact_status_name(status_); }

 private:
  demcontact_status status_;
  std::string message_;
};

/// Implementation details: not part of the wrapper's interface.
namespace detail {

/// Throws an Error for any status but `DEMCONTACT_STATUS_OK`, with this thread's last message (copied
/// before any other demcontact call can overwrite it).
inline void check(demcontact_status status) {
  if (status != DEMCONTACT_STATUS_OK) {
    const std::string message(demcontact_last_error_message());
    throw Error(status, message);
  }
}


/**
 * Owner of one handle of type `T`, released with `Release` exactly once: move-only (moving
 * transfers the handle and leaves the source empty); the destructor releases it.
 */
template <typename T, demcontact_status (*Release)(T*)>
class Handle {
 public:
  Handle() noexcept : handle_(nullptr) {}
  explicit Handle(T* handle) noexcept : handle_(handle) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept : handle_(other.handle_) { other.handle_ = nullptr; }
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset(other.handle_);
      other.handle_ = nullptr;
    }
    return *this;
  }
  ~Handle() { reset(); }

  T* get() const noexcept { return handle_; }

  T* release() noexcept {
    T* handle = handle_;
    handle_ = nullptr;
    return handle;
  }

  void reset(T* handle = nullptr) noexcept {
    T* old = handle_;
    handle_ = handle;
    if (old != nullptr) {
      // Cannot fail for a live handle; a destructor must not throw anyway.
      (void)Release(old);
    }
  }

 private:
  T* handle_;
};

/**
 * Fills `out` from a C function that copies up to `capacity` records and reports their total:
 * `copy(records, capacity, &count)`. The vector's capacity is the first guess; when the total is
 * larger, the copy is repeated into a vector of the total's size. `out` ends with `count` records.
 */
template <typename T, typename Copy>
void copy_counted(std::vector<T>& out, Copy copy) {
  out.resize(out.capacity());
  std::size_t count = 0;
  check(copy(out.empty() ? nullptr : &out[0], out.size(), &count));
  if (count > out.size()) {
    out.resize(count);
    check(copy(&out[0], out.size(), &count));
  }
  out.resize(count);
}

}  // namespace detail

// --- versions ------------------------------------------------------------------------------------

/// The loaded library's version, e.g. "0.1.0" (from `demcontact_version()`).
inline std::string version() { return std::string(demcontact_version()); }

/// The ABI the loaded library implements, `MAJOR * 1000 + MINOR` (`demcontact_abi_version()`).
inline std::uint32_t library_abi_version() noexcept { return demcontact_abi_version(); }

/// The ABI this program was compiled against: `DEMCONTACT_ABI_VERSION` of the header it included.
inline std::uint32_t header_abi_version() noexcept {
  return static_cast<std::uint32_t>(DEMCONTACT_ABI_VERSION);
}

/**
 * Whether the loaded library runs a program built with this header: the same ABI major part, and a
 * minor part at least as large (a newer library only adds to the ABI).
 */
inline bool abi_compatible() noexcept {
  const std::uint32_t lib = library_abi_version();
  const std::uint32_t hdr = header_abi_version();
  return lib / 1000u == hdr / 1000u && lib % 1000u >= hdr % 1000u;
}

/**
 * Throws std::runtime_error (not Error: no library call failed) when `abi_compatible()` is false,
 * naming both ABI numbers. Call it once at start-up.
 */
inline void require_compatible_abi() {
  if (!abi_compatible()) {
    throw std::runtime_error("demcontact: this program was built for ABI " +
                             std::to_string(header_abi_version()) +
                             " but the loaded library implements ABI " +
                             std::to_string(library_abi_version()));
  }
}

// --- poses and warm states -------------------------------------------------------------------------

/**
 * A pose at `position` (host length unit, world frame) with orientation quaternion (w, x, y, z), body
 * frame -> world frame. The quaternion should have unit norm: within `DEMCONTACT_QUATERNION_TOLERANCE`
 * the library normalises it, farther off a query throws Error(DEMCONTACT_STATUS_INVALID_ARGUMENT).
 */
inline demcontact_pose make_pose(double x, double y, double z, double w = 1.0, double qx = 0.0,
                                 double qy = 0.0, double qz = 0.0) noexcept {
  demcontact_pose p;
  p.position[0] = x;
  p.position[1] = y;
  p.position[2] = z;
  p.orientation[0] = w;
  p.orientation[1] = qx;
  p.orientation[2] = qy;
  p.orientation[3] = qz;
  return p;
}

/// The same as the other `make_pose`, from arrays: `position` (x, y, z), `orientation` (w, x, y, z).
inline demcontact_pose make_pose(const std::array<double, 3>& position,
                                 const std::array<double, 4>& orientation) noexcept {
  return make_pose(position[0], position[1], position[2], orientation[0], orientation[1],
                   orientation[2], orientation[3]);
}

/// The identity pose: body frame == world frame.
inline demcontact_pose identity_pose() noexcept { return make_pose(0.0, 0.0, 0.0); }

/**
 * A cold warm state (all zero): what a new contact starts from. Keep one per ordered pair (A, B) with
 * the host's contact history and pass it to every `collide` of that pair; copy it bytewise freely.
 */
inline demcontact_warm_state cold_warm_state() noexcept { return demcontact_warm_state(); }

// --- shapes ------------------------------------------------------------------------------------------

/// A polyhedron's mass properties at uniform density (`demcontact_polyhedron_mass_properties`).
struct MassProperties {
  /// The volume (host length unit cubed): mass = density * volume.
  double volume;
  /// The centroid in the body frame (the frame of the points the polyhedron was made from).
  std::array<double, 3> centroid;
};

/// A polyhedron's numbers of vertices, edges and faces (`demcontact_polyhedron_counts`): feature
/// indices of `demcontact_basic_contact` run over `0..vertices`, `0..edges`, `0..faces`.
struct PolyhedronCounts {
  /// Number of vertices (the caller's points that are corners, in the caller's order).
  std::size_t vertices;
  /// Number of edges.
  std::size_t edges;
  /// Number of faces (coplanar hull triangles merged into polygons).
  std::size_t faces;
};

/**
 * Owner of one `demcontact_shape*` handle: an immutable particle shape in its body frame.
 *
 * Move-only: copying is deleted (a handle is released exactly once); moving transfers the handle and
 * leaves the source empty (`get() == nullptr`). The destructor releases the handle. An empty Shape
 * (default-constructed or moved-from) may be destroyed, assigned to or moved, and any query on it throws
 * Error(DEMCONTACT_STATUS_NULL_ARGUMENT).
 */
class Shape {
 public:
  /// An empty Shape holding no handle.
  Shape() noexcept : handle_(nullptr) {}

  /// Takes ownership of `handle` (from a `demcontact_*_create` function; may be nullptr).
  explicit Shape(demcontact_shape* handle) noexcept : handle_(handle) {}

  /**
   * A sphere of `radius` (host length unit) centred on its body-frame origin. Throws
   * Error(DEMCONTACT_STATUS_INVALID_ARGUMENT) when radius <= 0, Error(DEMCONTACT_STATUS_NON_FINITE)
   * when it is NaN or infinite.
   */
  static Shape sphere(double radius) {
    demcontact_shape* handle = nullptr;
    detail::check(demcontact_sphere_create(radius, &handle));
    return Shape(handle);
  }

  /**
   * Barr's superellipsoid with semi-axes `r1, r2, r3` (host length unit, > 0) and squareness
   * `eps1, eps2` in (0, 2) (Wellmann, Lillie & Wriggers 2008, eq. (1)). Throws
   * Error(DEMCONTACT_STATUS_INVALID_ARGUMENT) naming the parameter out of range,
   * Error(DEMCONTACT_STATUS_NON_FINITE) for NaN or infinite parameters.
   */
  static Shape superellipsoid(double r1, double r2, double r3, double eps1, double eps2) {
    demcontact_shape* handle = nullptr;
    detail::check(demcontact_superellipsoid_create(r1, r2, r3, eps1, eps2, &handle));
    return Shape(handle);
  }

  /**
   * The convex hull of `n_points` points, `xyz` holding `x0, y0, z0, x1, ...` (host length unit) in the
   * body frame; the body frame is the caller's (the vertices are the given points, not re-centred).
   * Throws Error(DEMCONTACT_STATUS_DEGENERATE_GEOMETRY) for fewer than 4 distinct, collinear, coplanar,
   * needle-like or flat points, Error(DEMCONTACT_STATUS_NON_FINITE) for a NaN or infinite coordinate,
   * Error(DEMCONTACT_STATUS_NULL_ARGUMENT) when `xyz` is nullptr with `n_points > 0`.
   */
  static Shape polyhedron(const double* xyz, std::size_t n_points) {
    demcontact_shape* handle = nullptr;
    detail::check(demcontact_polyhedron_create(xyz, n_points, &handle));
    return Shape(handle);
  }

  /// The same as the pointer form, from a vector of (x, y, z) points.
  static Shape polyhedron(const std::vector<std::array<double, 3> >& points) {
    std::vector<double> xyz;
    xyz.reserve(3 * points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
      xyz.push_back(points[i][0]);
      xyz.push_back(points[i][1]);
      xyz.push_back(points[i][2]);
    }
    return polyhedron(xyz.empty() ? nullptr : &xyz[0], points.size());
  }

  /**
   * A potential particle (Boon, Houlsby & Utili 2013, eq. (2)) from `n_planes` planes `abcd` holding
   * `a0, b0, c0, d0, a1, ...` (outward normals of any non-zero length, `d > 0`), the rounding `r > 0`,
   * the shadow sphere's radius `R > 0` and its weight `k` in (0, 1). Throws
   * Error(DEMCONTACT_STATUS_DEGENERATE_GEOMETRY) for planes that bound no finite body,
   * Error(DEMCONTACT_STATUS_INVALID_ARGUMENT) for parameters out of range,
   * Error(DEMCONTACT_STATUS_NON_FINITE) for NaN or infinite numbers.
   */
  static Shape potential_particle(const double* abcd, std::size_t n_planes, double r, double R,
                                  double k) {
    demcontact_shape* handle = nullptr;
    detail::check(demcontact_potential_particle_create(abcd, n_planes, r, R, k, &handle));
    return Shape(handle);
  }

  Shape(const Shape&) = delete;
  Shape& operator=(const Shape&) = delete;

  /// Takes `other`'s handle; `other` is left empty.
  Shape(Shape&& other) noexcept : handle_(std::move(other.handle_)) {}

  /// Releases this Shape's handle and takes `other`'s; `other` is left empty. Self-move is a no-op.
  Shape& operator=(Shape&& other) noexcept {
    handle_ = std::move(other.handle_);
    return *this;
  }

  /// The handle (nullptr when empty), still owned by this Shape: for calling the C ABI directly.
  const demcontact_shape* get() const noexcept { return handle_.get(); }

  /// Whether this Shape holds a handle.
  explicit operator bool() const noexcept { return handle_.get() != nullptr; }

  /// Gives up ownership: returns the handle (the caller now releases it) and leaves this Shape empty.
  demcontact_shape* release() noexcept { return handle_.release(); }

  /// Releases the current handle (if any) and takes ownership of `handle` (may be nullptr).
  void reset(demcontact_shape* handle = nullptr) noexcept { handle_.reset(handle); }

  /// The shape family, a `DEMCONTACT_SHAPE_*` code (e.g. DEMCONTACT_SHAPE_SPHERE).
  demcontact_shape_family_code family() const {
    demcontact_shape_family_code code = 0;
    detail::check(demcontact_shape_family(handle_.get(), &code));
    return code;
  }

  /// Radius of the smallest sphere about the body-frame origin holding the shape (host length unit).
  double bounding_radius() const {
    double radius = 0.0;
    detail::check(demcontact_shape_bounding_radius(handle_.get(), &radius));
    return radius;
  }

  /// Writes the tight world-frame axis-aligned bounding box at `pose` to `lo[3]` and `hi[3]`.
  void aabb(const demcontact_pose& pose, double lo[3], double hi[3]) const {
    detail::check(demcontact_shape_aabb(handle_.get(), &pose, lo, hi));
  }

  /**
   * A polyhedron's volume and centroid (body frame) at uniform density. Throws
   * Error(DEMCONTACT_STATUS_INVALID_ARGUMENT) when the shape is not a polyhedron.
   */
  MassProperties mass_properties() const {
    MassProperties m;
    m.volume = 0.0;
    m.centroid = {{0.0, 0.0, 0.0}};
    detail::check(
        demcontact_polyhedron_mass_properties(handle_.get(), &m.volume, m.centroid.data()));
    return m;
  }

  /// A polyhedron's numbers of vertices, edges and faces; throws for another family.
  PolyhedronCounts polyhedron_counts() const {
    PolyhedronCounts c;
    c.vertices = c.edges = c.faces = 0;
    detail::check(demcontact_polyhedron_counts(handle_.get(), &c.vertices, &c.edges, &c.faces));
    return c;
  }

  /**
   * The index, among the points the polyhedron was made from, of the point that is vertex `vertex`.
   * Throws Error(DEMCONTACT_STATUS_INVALID_ARGUMENT) for a vertex index out of range or another family.
   */
  std::size_t vertex_source(std::size_t vertex) const {
    std::size_t point = 0;
    detail::check(demcontact_polyhedron_vertex_source(handle_.get(), vertex, &point));
    return point;
  }

  /// The tight world-frame axis-aligned bounding box at `pose`, as (lo, hi) corners.
  std::pair<std::array<double, 3>, std::array<double, 3> > aabb(const demcontact_pose& pose) const {
    std::array<double, 3> lo = {{0.0, 0.0, 0.0}};
    std::array<double, 3> hi = {{0.0, 0.0, 0.0}};
    aabb(pose, lo.data(), hi.data());
    return std::make_pair(lo, hi);
  }

 private:
  detail::Handle<demcontact_shape, demcontact_shape_release> handle_;
};

// --- queries -----------------------------------------------------------------------------------------

/**
 * The contact of shape `a` at `pose_a` with shape `b` at `pose_b` (world frame, host length unit; see
 * `demcontact_contact`): `touching == 1` and `penetration > 0` when they overlap, otherwise
 * `separation` (the exact gap when `flags & DEMCONTACT_CONTACT_FLAG_SEPARATION_EXACT`); `normal` is a
 * unit vector from A to B.
 *
 * `warm` is the pair's warm state (start a new contact from `cold_warm_state()`), updated in place on
 * success; nullptr for a cold query keeping no state. Throws Error on failure (then `*warm` is left
 * unchanged): an empty Shape, a bad pose, a foreign warm state, an unsupported pair of families.
 */
inline demcontact_contact collide(const Shape& a, const demcontact_pose& pose_a, const Shape& b,
                                  const demcontact_pose& pose_b,
                                  demcontact_warm_state* warm = nullptr) {
  demcontact_contact out;
  detail::check(demcontact_collide(a.get(), &pose_a, b.get(), &pose_b, warm, &out));
  return out;
}

/**
 * The contact of polyhedron `a` at `pose_a` with polyhedron `b` at `pose_b` (as `collide`) and the pair's
 * basic contacts (`demcontact_basic_contact`, world frame), written to `list`, which is resized to the
 * pair's number of basic contacts (0 when apart). The vector's capacity is used as a first guess: a host
 * that keeps one vector per thread allocates only while it grows. When the list needs more room the
 * query is repeated from the same warm state, so `*warm` is updated once, as by one `collide`.
 *
 * Throws Error(DEMCONTACT_STATUS_UNSUPPORTED_PAIR) unless both shapes are polyhedra, and as `collide`
 * for the rest (then `*warm` is unchanged and `list` is empty).
 */
inline demcontact_contact contact_list(const Shape& a, const demcontact_pose& pose_a, const Shape& b,
                                       const demcontact_pose& pose_b,
                                       std::vector<demcontact_basic_contact>& list,
                                       demcontact_warm_state* warm = nullptr) {
  const demcontact_warm_state before = warm != nullptr ? *warm : cold_warm_state();
  list.resize(list.capacity());
  demcontact_contact out;
  std::size_t count = 0;
  const demcontact_status status =
      demcontact_contact_list(a.get(), &pose_a, b.get(), &pose_b, warm, &out,
                              list.empty() ? nullptr : &list[0], list.size(), &count);
  if (status != DEMCONTACT_STATUS_OK) {
    list.clear();
    detail::check(status);
  }
  if (count > list.size()) {
    if (warm != nullptr) {
      *warm = before;
    }
    list.resize(count);
    const demcontact_status again =
        demcontact_contact_list(a.get(), &pose_a, b.get(), &pose_b, warm, &out, &list[0],
                                list.size(), &count);
    if (again != DEMCONTACT_STATUS_OK) {
      list.clear();
      detail::check(again);
    }
  }
  list.resize(count);
  return out;
}

/// One batch entry: shape `a` at `pose_a` with shape `b` at `pose_b`. Both Shapes must outlive the
/// batch call (the entry borrows their handles).
inline demcontact_pair make_contact_pair(const Shape& a, const demcontact_pose& pose_a, const Shape& b,
                                         const demcontact_pose& pose_b) noexcept {
  demcontact_pair p;
  p.a = a.get();
  p.pose_a = pose_a;
  p.b = b.get();
  p.pose_b = pose_b;
  return p;
}

/**
 * What a batch returned. Per-pair failures do NOT throw: each pair has its own status, its contact is
 * all zeros when that status is not OK, and its warm state is left unchanged. Only a failure of the
 * call as a whole (e.g. null arrays) throws Error.
 */
struct BatchResult {
  /// `statuses[i]` is pair i's `DEMCONTACT_STATUS_*` code.
  std::vector<demcontact_status> statuses;
  /// `DEMCONTACT_STATUS_OK` when every pair succeeded, else the status of the first failed pair.
  demcontact_status status;
  /// The first failed pair's message, prefixed with "pair <index>: "; empty when all succeeded.
  std::string message;

  /// Whether every pair succeeded.
  bool ok() const noexcept { return status == DEMCONTACT_STATUS_OK; }

  /// Throws Error(status, message) unless every pair succeeded.
  void throw_if_failed() const {
    if (!ok()) {
      throw Error(status, message);
    }
  }
};

/**
 * The contacts of `n` pairs in one call, written to `out[0..n)` in input order, spread over `threads`
 * threads (0: all cores, 1: only the calling thread, at most 1024); the results do not depend on
 * the thread count.
 * `warm` is nullptr (cold queries keeping no state) or `n` warm states, one per pair, updated in place.
 * `n == 0` is allowed with null arrays. See BatchResult for what a per-pair failure does.
 */
inline BatchResult collide_batch(const demcontact_pair* pairs, std::size_t n, demcontact_contact* out,
                                 demcontact_warm_state* warm = nullptr, std::uint32_t threads = 0) {
  // A status the library never writes: left in place means the call failed before the pairs ran.
  const demcontact_status unset = -1;
  BatchResult result;
  result.statuses.assign(n, unset);
  result.status = demcontact_collide_batch(pairs, n, warm, threads, out,
                                           result.statuses.empty() ? nullptr : &result.statuses[0]);
  if (result.status != DEMCONTACT_STATUS_OK) {
    result.message = demcontact_last_error_message();
    for (std::size_t i = 0; i < n; ++i) {
      if (result.statuses[i] == unset) {
        throw Error(result.status, result.message);
      }
    }
  }
  return result;
}

/**
 * The vector form of the pointer form above: `out` is resized to `pairs.size()`. `warm` is nullptr or
 * holds exactly one state per pair (otherwise std::invalid_argument is thrown before any query).
 */
inline BatchResult collide_batch(const std::vector<demcontact_pair>& pairs,
                                 std::vector<demcontact_contact>& out,
                                 std::vector<demcontact_warm_state>* warm = nullptr,
                                 std::uint32_t threads = 0) {
  if (warm != nullptr && warm->size() != pairs.size()) {
    throw std::invalid_argument("demcontact::collide_batch: " + std::to_string(warm->size()) +
                                " warm states for " + std::to_string(pairs.size()) + " pairs");
  }
  out.resize(pairs.size());
  if (pairs.empty()) {
    return collide_batch(nullptr, 0, nullptr, nullptr, threads);
  }
  return collide_batch(&pairs[0], pairs.size(), &out[0],
                       warm != nullptr ? &(*warm)[0] : nullptr, threads);
}

// --- broad phase and world ---------------------------------------------------------------------------

/**
 * Owner of a `demcontact_broad_phase*`: the candidate pairs of a scene of bounding spheres or boxes
 * (a sorted cell list), with a Verlet skin (host length unit, >= 0; 0: the exact overlaps at every
 * update). Move-only, as Shape. Throws Error(DEMCONTACT_STATUS_INVALID_ARGUMENT) for a negative skin,
 * Error(DEMCONTACT_STATUS_NON_FINITE) for a NaN or infinite one.
 */
class BroadPhase {
 public:
  explicit BroadPhase(double skin = 0.0) {
    demcontact_broad_phase* handle = nullptr;
    detail::check(demcontact_broad_phase_create(skin, &handle));
    handle_.reset(handle);
  }

  /**
   * The scene's `n` bounding spheres: centre `centres[3i..3i+3]` (world frame) and radius `radii[i]`.
   * Returns whether the pair list was rebuilt (false: every body is still within half the skin of
   * where the list was built). Throws Error for NaN, negative radii or null arrays with `n > 0`.
   */
  bool update_spheres(const double* centres, const double* radii, std::size_t n) {
    std::int32_t rebuilt = 0;
    detail::check(demcontact_broad_phase_update_spheres(handle_.get(), centres, radii, n, &rebuilt));
    return rebuilt != 0;
  }

  /// As above, from vectors of equal length (else std::invalid_argument before any call).
  bool update_spheres(const std::vector<std::array<double, 3> >& centres,
                      const std::vector<double>& radii) {
    if (centres.size() != radii.size()) {
      throw std::invalid_argument("demcontact::BroadPhase::update_spheres: " +
                                  std::to_string(centres.size()) + " centres for " +
                                  std::to_string(radii.size()) + " radii");
    }
    return update_spheres(centres.empty() ? nullptr : centres[0].data(),
                          radii.empty() ? nullptr : &radii[0], radii.size());
  }

  /// The scene's `n` axis-aligned boxes `lo[3i..3i+3]`, `hi[3i..3i+3]` (e.g. from Shape::aabb).
  bool update_boxes(const double* lo, const double* hi, std::size_t n) {
    std::int32_t rebuilt = 0;
    detail::check(demcontact_broad_phase_update_boxes(handle_.get(), lo, hi, n, &rebuilt));
    return rebuilt != 0;
  }

  /// The candidate pairs (0-based `a < b`, sorted, each once) into `out` (its capacity reused).
  void pairs(std::vector<demcontact_body_pair>& out) const {
    const demcontact_broad_phase* broad = handle_.get();
    detail::copy_counted(out, [broad](demcontact_body_pair* p, std::size_t n, std::size_t* count) {
      return demcontact_broad_phase_pairs(broad, p, n, count);
    });
  }

  /// The candidate pairs, as a new vector.
  std::vector<demcontact_body_pair> pairs() const {
    std::vector<demcontact_body_pair> out;
    pairs(out);
    return out;
  }

  /// The handle, still owned by this BroadPhase: for calling the C ABI directly.
  demcontact_broad_phase* get() const noexcept { return handle_.get(); }

 private:
  detail::Handle<demcontact_broad_phase, demcontact_broad_phase_release> handle_;
};

/**
 * Owner of a `demcontact_world*`: whole steps over a scene of bodies (shape, pose), the broad phase
 * on their boxes with a Verlet skin (host length unit, >= 0) and the narrow phase on every candidate
 * pair over threads, each pair's warm state kept inside. Move-only, as Shape. Throws as BroadPhase.
 */
class World {
 public:
  explicit World(double skin = 0.0) {
    demcontact_world* handle = nullptr;
    detail::check(demcontact_world_create(skin, &handle));
    handle_.reset(handle);
  }

  /**
   * Replaces every body: body `i` is `*shapes[i]` at `poses[i]` (world frame); warm states are
   * dropped. The world keeps its own reference to each shape: the Shapes may be destroyed after.
   * Throws std::invalid_argument for vectors of different lengths or a null Shape pointer, Error
   * for an empty Shape or a bad pose.
   */
  void set_bodies(const std::vector<const Shape*>& shapes, const std::vector<demcontact_pose>& poses) {
    if (shapes.size() != poses.size()) {
      throw std::invalid_argument("demcontact::World::set_bodies: " + std::to_string(shapes.size()) +
                                  " shapes for " + std::to_string(poses.size()) + " poses");
    }
    std::vector<const demcontact_shape*> handles(shapes.size());
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      if (shapes[i] == nullptr) {
        throw std::invalid_argument("demcontact::World::set_bodies: shape " + std::to_string(i) +
                                    " is a null pointer");
      }
      handles[i] = shapes[i]->get();
    }
    detail::check(demcontact_world_set_bodies(handle_.get(), handles.empty() ? nullptr : &handles[0],
                                              poses.empty() ? nullptr : &poses[0], poses.size()));
  }

  /// Moves the bodies (one pose per body, world frame); warm states are kept.
  void set_poses(const std::vector<demcontact_pose>& poses) {
    detail::check(demcontact_world_set_poses(handle_.get(), poses.empty() ? nullptr : &poses[0],
                                             poses.size()));
  }

  /// One step on `threads` threads (0: all cores); returns the number of touching pairs. The
  /// contacts are identical, bit for bit, whatever the thread count.
  std::size_t step(std::uint32_t threads = 0) {
    std::size_t count = 0;
    detail::check(demcontact_world_step(handle_.get(), threads, &count));
    return count;
  }

  /// The last step's contacts (`a < b`, the contact with A = body a; in pair order) into `out`.
  void contacts(std::vector<demcontact_body_contact>& out) const {
    const demcontact_world* world = handle_.get();
    detail::copy_counted(out, [world](demcontact_body_contact* c, std::size_t n, std::size_t* count) {
      return demcontact_world_contacts(world, c, n, count);
    });
  }

  /// The last step's contacts, as a new vector.
  std::vector<demcontact_body_contact> contacts() const {
    std::vector<demcontact_body_contact> out;
    contacts(out);
    return out;
  }

  /// The handle, still owned by this World: for calling the C ABI directly.
  demcontact_world* get() const noexcept { return handle_.get(); }

 private:
  detail::Handle<demcontact_world, demcontact_world_release> handle_;
};

}  // namespace demcontact

#endif /* DEMCONTACT_HPP */
