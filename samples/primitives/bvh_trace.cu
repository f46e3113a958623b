/*
 * bvh_trace -- path tracing through a bounding volume hierarchy, one ray
 * per thread: the diverge-on-miss paper's RT workload (a SimpleBVH path
 * tracer).  Each thread starts a camera ray at its pixel, finds the
 * closest triangle by walking the BVH with a small stack (nearer child
 * box first, boxes beyond the closest hit so far skipped) and bounces in a
 * pseudo-random direction off it, until the ray reaches a light, leaves
 * the scene, or has bounced MAX_BOUNCES times.  Which node a lane fetches
 * next depends on its own ray: the camera rays of a warp start together
 * and share the top of the tree (hits), then part ways, and after the
 * first bounce every lane walks its own path through the nodes and
 * triangles, so the lanes of a warp hit and miss the cache independently
 * (memory divergence).  A node is 32 bytes, one line of the paper's L1.
 *
 * Substituted: the "conference" scene (about a million triangles, 1024 x
 * 1024 image) by a synthetic one: a closed room whose walls are tiled
 * into small triangles (4 x 4 squares a wall at tiny), its whole ceiling
 * a light, with randomly placed small triangles inside (256, and a 32 x 32
 * image, at tiny; their total area the same at every size); and one bounce
 * at most (MAX_BOUNCES; the paper's rays bounce until they reach a light),
 * to keep the tiny run short.  The BVH is built by the surface area
 * heuristic, up to 4 triangles a leaf.  Directions are unnormalised and
 * every float operation of the tracer is rounded the same way on host and
 * device (the device's through __fadd_rn and friends, which no compiler
 * fuses into fma), so the host's run of the same tracer gives the same
 * paths: bounces, last triangle and summed ray parameters must match
 * exactly.
 */
#include "sample.h"

#include <algorithm>
#include <array>
#include <vector>

#define BLOCK 32
#define MAX_BOUNCES 1
#define LEAF_SIZE 4
#define STACK 64
#define ROOM 16.0f
#define NO_HIT 1e30f

/* count > 0: a leaf of triangles first .. first + count - 1; otherwise an
 * inner node (split along axis -count), children first and first + 1. */
struct node {
    float lo[3], hi[3];
    int first, count;
};

/* v0.w is 1 for a light. */
struct tri {
    float4 v0, e1, e2;
};

/* Each rounded once, in the written order, on both sides: the device's
 * through the _rn intrinsics, which no compiler fuses into fma.  Macros,
 * so that the -G builds make no call for every operation. */
#ifdef __CUDA_ARCH__
#define R_ADD(a, b) __fadd_rn(a, b)
#define R_SUB(a, b) __fsub_rn(a, b)
#define R_MUL(a, b) __fmul_rn(a, b)
#define R_DIV(a, b) __fdiv_rn(a, b)
#else
#define R_ADD(a, b) ((a) + (b))
#define R_SUB(a, b) ((a) - (b))
#define R_MUL(a, b) ((a) * (b))
#define R_DIV(a, b) ((a) / (b))
#endif
#define DOT3(ax, ay, az, bx, by, bz) R_ADD(R_ADD(R_MUL(ax, bx), R_MUL(ay, by)), R_MUL(az, bz))

__host__ __device__ static unsigned hash2(unsigned a, unsigned b)
{
    unsigned x = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    x *= 0x297A2D39u;
    x ^= x >> 15;
    return x;
}

/* A multiple of 2^-23 in [-1, 1), never 0 (so 1 / d stays finite). */
__host__ __device__ static float unit_rand(unsigned h)
{
    float v = R_SUB(R_MUL((float)(h & 0xFFFFFF), 1.0f / 8388608.0f), 1.0f);
    return v == 0.0f ? 1.0f / 1048576.0f : v;
}

/* Slab test: where the ray enters the box, if it does before t_max; else
 * NO_HIT.  No NaN can arise: 1 / d is finite and so is lo - o. */
__host__ __device__ static float box_enter(const node &nd, float ox, float oy, float oz, float ix, float iy,
                                           float iz, float t_max)
{
    float t0 = 0.0f, t1 = t_max, a, b;
    a = R_MUL(R_SUB(nd.lo[0], ox), ix);
    b = R_MUL(R_SUB(nd.hi[0], ox), ix);
    t0 = a < b ? (a > t0 ? a : t0) : (b > t0 ? b : t0);
    t1 = a < b ? (b < t1 ? b : t1) : (a < t1 ? a : t1);
    a = R_MUL(R_SUB(nd.lo[1], oy), iy);
    b = R_MUL(R_SUB(nd.hi[1], oy), iy);
    t0 = a < b ? (a > t0 ? a : t0) : (b > t0 ? b : t0);
    t1 = a < b ? (b < t1 ? b : t1) : (a < t1 ? a : t1);
    a = R_MUL(R_SUB(nd.lo[2], oz), iz);
    b = R_MUL(R_SUB(nd.hi[2], oz), iz);
    t0 = a < b ? (a > t0 ? a : t0) : (b > t0 ? b : t0);
    t1 = a < b ? (b < t1 ? b : t1) : (a < t1 ? a : t1);
    return t0 <= t1 ? t0 : NO_HIT;
}

/* Moller-Trumbore, two-sided: the ray parameter of the hit if one lies in
 * (1e-4, t_max); else NO_HIT. */
__host__ __device__ static float tri_hit(const tri &tr, float ox, float oy, float oz, float dx, float dy,
                                         float dz, float t_max)
{
    float px = R_SUB(R_MUL(dy, tr.e2.z), R_MUL(dz, tr.e2.y));
    float py = R_SUB(R_MUL(dz, tr.e2.x), R_MUL(dx, tr.e2.z));
    float pz = R_SUB(R_MUL(dx, tr.e2.y), R_MUL(dy, tr.e2.x));
    float det = DOT3(tr.e1.x, tr.e1.y, tr.e1.z, px, py, pz);
    if (det > -1e-12f && det < 1e-12f)
        return NO_HIT;
    float inv = R_DIV(1.0f, det);
    float sx = R_SUB(ox, tr.v0.x), sy = R_SUB(oy, tr.v0.y), sz = R_SUB(oz, tr.v0.z);
    float u = R_MUL(DOT3(sx, sy, sz, px, py, pz), inv);
    if (u < 0.0f || u > 1.0f)
        return NO_HIT;
    float qx = R_SUB(R_MUL(sy, tr.e1.z), R_MUL(sz, tr.e1.y));
    float qy = R_SUB(R_MUL(sz, tr.e1.x), R_MUL(sx, tr.e1.z));
    float qz = R_SUB(R_MUL(sx, tr.e1.y), R_MUL(sy, tr.e1.x));
    float v = R_MUL(DOT3(dx, dy, dz, qx, qy, qz), inv);
    if (v < 0.0f || R_ADD(u, v) > 1.0f)
        return NO_HIT;
    float t = R_MUL(DOT3(tr.e2.x, tr.e2.y, tr.e2.z, qx, qy, qz), inv);
    return t > 1e-4f && t < t_max ? t : NO_HIT;
}

/* The closest triangle along the ray other than skip (the one it leaves),
 * or -1. */
__host__ __device__ static int closest_hit(const node *nodes, const tri *tris, float ox, float oy, float oz,
                                           float dx, float dy, float dz, int skip, float *t_hit)
{
    float ix = R_DIV(1.0f, dx), iy = R_DIV(1.0f, dy), iz = R_DIV(1.0f, dz);
    /* Nodes to visit, with where the ray enters their boxes: a node the
     * closest hit found since it was pushed lies in front of is skipped. */
    int stack[STACK];
    float enter[STACK];
    int sp = 0, hit = -1;
    float best = NO_HIT, t_root = box_enter(nodes[0], ox, oy, oz, ix, iy, iz, best);
    if (t_root < NO_HIT) {
        enter[sp] = t_root;
        stack[sp++] = 0;
    }
    while (sp > 0) {
        --sp;
        if (enter[sp] > best)
            continue;
        const node &nd = nodes[stack[sp]];
        if (nd.count > 0) {
            for (int k = nd.first; k < nd.first + nd.count; k++) {
                float t = k == skip ? NO_HIT : tri_hit(tris[k], ox, oy, oz, dx, dy, dz, best);
                if (t < best) {
                    best = t;
                    hit = k;
                }
            }
            continue;
        }
        float tl = box_enter(nodes[nd.first], ox, oy, oz, ix, iy, iz, best);
        float tr = box_enter(nodes[nd.first + 1], ox, oy, oz, ix, iy, iz, best);
        /* The nearer child on top; a child the ray misses is not pushed. */
        bool left_first = tl <= tr;
        float t_far = left_first ? tr : tl, t_near = left_first ? tl : tr;
        if (t_far < NO_HIT) {
            enter[sp] = t_far;
            stack[sp++] = left_first ? nd.first + 1 : nd.first;
        }
        if (t_near < NO_HIT) {
            enter[sp] = t_near;
            stack[sp++] = left_first ? nd.first : nd.first + 1;
        }
    }
    *t_hit = best;
    return hit;
}

/* One path from pixel i: returns the number of bounces, with the last
 * triangle hit (-1: left the scene) and the sum of the ray parameters. */
__host__ __device__ static int trace_path(const node *nodes, const tri *tris, int i, int w, int h, int *last,
                                          float *t_sum)
{
    int px = i % w, py = i / w;
    float ox = 0.5f * ROOM, oy = 0.5f * ROOM, oz = 0.5f;
    float dx = R_DIV((float)(2 * px + 1 - w), (float)w), dy = R_DIV((float)(2 * py + 1 - h), (float)w);
    float dz = 1.0f;
    float sum = 0.0f;
    int prev = -1, bounces = 0;
    for (;;) {
        float t;
        int k = closest_hit(nodes, tris, ox, oy, oz, dx, dy, dz, prev, &t);
        if (k < 0)
            break;
        sum = R_ADD(sum, t);
        prev = k;
        const tri &tr = tris[k];
        if (tr.v0.w != 0.0f || bounces == MAX_BOUNCES)
            break;
        bounces++;
        ox = R_ADD(ox, R_MUL(t, dx));
        oy = R_ADD(oy, R_MUL(t, dy));
        oz = R_ADD(oz, R_MUL(t, dz));
        float nx = R_SUB(R_MUL(tr.e1.y, tr.e2.z), R_MUL(tr.e1.z, tr.e2.y));
        float ny = R_SUB(R_MUL(tr.e1.z, tr.e2.x), R_MUL(tr.e1.x, tr.e2.z));
        float nz = R_SUB(R_MUL(tr.e1.x, tr.e2.y), R_MUL(tr.e1.y, tr.e2.x));
        bool came_from_front = DOT3(dx, dy, dz, nx, ny, nz) < 0.0f;
        dx = unit_rand(hash2((unsigned)i, (unsigned)(3 * bounces)));
        dy = unit_rand(hash2((unsigned)i, (unsigned)(3 * bounces + 1)));
        dz = unit_rand(hash2((unsigned)i, (unsigned)(3 * bounces + 2)));
        /* Leave on the side the ray arrived from. */
        if ((DOT3(dx, dy, dz, nx, ny, nz) > 0.0f) != came_from_front) {
            dx = -dx;
            dy = -dy;
            dz = -dz;
        }
    }
    *last = prev;
    *t_sum = sum;
    return bounces;
}

__global__ void trace(const node *nodes, const tri *tris, int w, int h, int *bounces, int *last, float *t_sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= w * h)
        return;
    int l;
    float s;
    bounces[i] = trace_path(nodes, tris, i, w, h, &l, &s);
    last[i] = l;
    t_sum[i] = s;
}

static float half_area(const float lo[3], const float hi[3])
{
    float dx = hi[0] - lo[0], dy = hi[1] - lo[1], dz = hi[2] - lo[2];
    return dx * dy + dy * dz + dz * dx;
}

/* The node over tris[b .. e): split by the surface area heuristic over
 * SAH_BINS bins of the triangles' centroids on each axis (the split whose
 * two sides have the least sum of area x triangles), or in the middle
 * where all centroids coincide.  Returns the depth of the subtree. */
#define SAH_BINS 16
static int build(std::vector<node> &nodes, std::vector<tri> &tris, int ni, int b, int e)
{
    node nd;
    int n = e - b;
    std::vector<float> cent((size_t)n * 3);
    float clo[3], chi[3];
    for (int a = 0; a < 3; a++) {
        nd.lo[a] = clo[a] = NO_HIT;
        nd.hi[a] = chi[a] = -NO_HIT;
    }
    std::vector<std::array<float, 6>> box(n);
    for (int k = 0; k < n; k++) {
        const tri &t = tris[b + k];
        float v[3][3] = { { t.v0.x, t.v0.y, t.v0.z },
                          { t.v0.x + t.e1.x, t.v0.y + t.e1.y, t.v0.z + t.e1.z },
                          { t.v0.x + t.e2.x, t.v0.y + t.e2.y, t.v0.z + t.e2.z } };
        for (int a = 0; a < 3; a++) {
            float c = (v[0][a] + v[1][a] + v[2][a]) / 3.0f;
            cent[(size_t)k * 3 + a] = c;
            clo[a] = std::min(clo[a], c);
            chi[a] = std::max(chi[a], c);
            box[k][a] = std::min(v[0][a], std::min(v[1][a], v[2][a]));
            box[k][3 + a] = std::max(v[0][a], std::max(v[1][a], v[2][a]));
            nd.lo[a] = std::min(nd.lo[a], box[k][a]);
            nd.hi[a] = std::max(nd.hi[a], box[k][3 + a]);
        }
    }
    if (n <= LEAF_SIZE) {
        nd.first = b;
        nd.count = n;
        nodes[ni] = nd;
        return 1;
    }
    auto bin_of = [&](int k, int a) {
        int i = (int)((cent[(size_t)k * 3 + a] - clo[a]) * (SAH_BINS / (chi[a] - clo[a])));
        return std::min(std::max(i, 0), SAH_BINS - 1);
    };
    int axis = -1, split = 0;
    float best = 0.0f;
    for (int a = 0; a < 3; a++) {
        if (!(chi[a] > clo[a]))
            continue;
        int count[SAH_BINS] = { 0 };
        float lo[SAH_BINS][3], hi[SAH_BINS][3];
        for (int i = 0; i < SAH_BINS; i++)
            for (int j = 0; j < 3; j++) {
                lo[i][j] = NO_HIT;
                hi[i][j] = -NO_HIT;
            }
        for (int k = 0; k < n; k++) {
            int i = bin_of(k, a);
            count[i]++;
            for (int j = 0; j < 3; j++) {
                lo[i][j] = std::min(lo[i][j], box[k][j]);
                hi[i][j] = std::max(hi[i][j], box[k][3 + j]);
            }
        }
        /* Right-hand sides' costs first, then sweep from the left. */
        float right_cost[SAH_BINS];
        float rlo[3] = { NO_HIT, NO_HIT, NO_HIT }, rhi[3] = { -NO_HIT, -NO_HIT, -NO_HIT };
        int rn = 0;
        for (int i = SAH_BINS - 1; i > 0; i--) {
            rn += count[i];
            for (int j = 0; j < 3; j++) {
                rlo[j] = std::min(rlo[j], lo[i][j]);
                rhi[j] = std::max(rhi[j], hi[i][j]);
            }
            right_cost[i] = rn ? rn * half_area(rlo, rhi) : -1.0f;
        }
        float llo[3] = { NO_HIT, NO_HIT, NO_HIT }, lhi[3] = { -NO_HIT, -NO_HIT, -NO_HIT };
        int ln = 0;
        for (int i = 1; i < SAH_BINS; i++) {
            ln += count[i - 1];
            for (int j = 0; j < 3; j++) {
                llo[j] = std::min(llo[j], lo[i - 1][j]);
                lhi[j] = std::max(lhi[j], hi[i - 1][j]);
            }
            if (ln == 0 || right_cost[i] < 0.0f)
                continue;
            float cost = ln * half_area(llo, lhi) + right_cost[i];
            if (axis < 0 || cost < best) {
                axis = a;
                split = i;
                best = cost;
            }
        }
    }
    std::vector<tri> left, right;
    for (int k = 0; k < n; k++) {
        bool go_left = axis >= 0 ? bin_of(k, axis) < split : k < n / 2;
        (go_left ? left : right).push_back(tris[b + k]);
    }
    std::copy(left.begin(), left.end(), tris.begin() + b);
    std::copy(right.begin(), right.end(), tris.begin() + b + left.size());
    int mid = b + (int)left.size(), child = (int)nodes.size();
    nd.first = child;
    nd.count = -std::max(axis, 0);
    nodes[ni] = nd;
    nodes.resize(nodes.size() + 2);
    int dl = build(nodes, tris, child, b, mid);
    int dr = build(nodes, tris, child + 1, mid, e);
    return 1 + std::max(dl, dr);
}

static tri make_tri(float ax, float ay, float az, float bx, float by, float bz, float cx, float cy, float cz,
                    bool light)
{
    tri t;
    t.v0 = make_float4(ax, ay, az, light ? 1.0f : 0.0f);
    t.e1 = make_float4(bx - ax, by - ay, bz - az, 0.0f);
    t.e2 = make_float4(cx - ax, cy - ay, cz - az, 0.0f);
    return t;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "bvh_trace");
    int w = 32, h = 32, n_clutter = 256, tiles = 4;
    if (size == SIZE_SMALL)
        w = 256, h = 256, n_clutter = 16384, tiles = 32;
    else if (size == SIZE_STANDARD)
        w = 1024, h = 1024, n_clutter = 1000000, tiles = 128;

    /* The room: each wall tiles x tiles squares of two triangles, the
     * ceiling's lights; then the clutter, each triangle's corners within
     * `reach` of a random centre. */
    const float R = ROOM, S = ROOM / tiles;
    std::vector<tri> tris;
    for (int a = 0; a < 3; a++)
        for (float c : { 0.0f, R })
            for (int ti = 0; ti < tiles; ti++)
                for (int tj = 0; tj < tiles; tj++) {
                    float corner[4][2] = { { ti * S, tj * S },
                                           { (ti + 1) * S, tj * S },
                                           { (ti + 1) * S, (tj + 1) * S },
                                           { ti * S, (tj + 1) * S } };
                    float p[4][3];
                    for (int k = 0; k < 4; k++) {
                        p[k][a] = c;
                        p[k][(a + 1) % 3] = corner[k][0];
                        p[k][(a + 2) % 3] = corner[k][1];
                    }
                    bool light = a == 1 && c == R;
                    tris.push_back(make_tri(p[0][0], p[0][1], p[0][2], p[1][0], p[1][1], p[1][2], p[2][0],
                                            p[2][1], p[2][2], light));
                    tris.push_back(make_tri(p[0][0], p[0][1], p[0][2], p[2][0], p[2][1], p[2][2], p[3][0],
                                            p[3][1], p[3][2], light));
                }
    lcg rng(1024);
    float reach = 0.3f * std::sqrt(512.0f / n_clutter);
    for (int k = 0; k < n_clutter; k++) {
        float c[3], v[3][3];
        for (int a = 0; a < 3; a++)
            c[a] = rng.uniform(1.0f, R - 1.0f);
        for (int j = 0; j < 3; j++)
            for (int a = 0; a < 3; a++)
                v[j][a] = c[a] + rng.uniform(-reach, reach);
        tris.push_back(make_tri(v[0][0], v[0][1], v[0][2], v[1][0], v[1][1], v[1][2], v[2][0], v[2][1],
                                v[2][2], false));
    }
    int n_tris = (int)tris.size();
    std::vector<node> nodes(1);
    int depth = build(nodes, tris, 0, 0, n_tris);
    if (depth >= STACK) {
        std::printf("FAIL bvh_trace: tree depth %d exceeds the stack of %d\n", depth, STACK);
        return 1;
    }

    int n_rays = w * h;
    node *dnodes;
    tri *dtris;
    int *dbounces, *dlast;
    float *dsum;
    CHECK(cudaMalloc(&dnodes, sizeof(node) * nodes.size()));
    CHECK(cudaMalloc(&dtris, sizeof(tri) * n_tris));
    CHECK(cudaMalloc(&dbounces, sizeof(int) * n_rays));
    CHECK(cudaMalloc(&dlast, sizeof(int) * n_rays));
    CHECK(cudaMalloc(&dsum, sizeof(float) * n_rays));
    CHECK(cudaMemcpy(dnodes, nodes.data(), sizeof(node) * nodes.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dtris, tris.data(), sizeof(tri) * n_tris, cudaMemcpyHostToDevice));
    trace<<<(n_rays + BLOCK - 1) / BLOCK, BLOCK>>>(dnodes, dtris, w, h, dbounces, dlast, dsum);
    CHECK(cudaGetLastError());
    std::vector<int> got_bounces(n_rays), got_last(n_rays);
    std::vector<float> got_sum(n_rays);
    CHECK(cudaMemcpy(got_bounces.data(), dbounces, sizeof(int) * n_rays, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got_last.data(), dlast, sizeof(int) * n_rays, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got_sum.data(), dsum, sizeof(float) * n_rays, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dnodes));
    CHECK(cudaFree(dtris));
    CHECK(cudaFree(dbounces));
    CHECK(cudaFree(dlast));
    CHECK(cudaFree(dsum));

    long wrong = 0, lit = 0, total_bounces = 0;
    for (int i = 0; i < n_rays; i++) {
        int last;
        float sum;
        int b = trace_path(nodes.data(), tris.data(), i, w, h, &last, &sum);
        total_bounces += b;
        lit += last >= 0 && tris[last].v0.w != 0.0f;
        wrong += got_bounces[i] != b || got_last[i] != last ||
                 std::memcmp(&got_sum[i], &sum, sizeof sum) != 0;
    }
    char detail[256];
    std::snprintf(detail, sizeof detail,
                  "size=%s %dx%d rays, one per thread, %d triangles, %zu BVH nodes (depth %d): %.2f "
                  "bounces a ray, %ld reach the light, wrong paths=%ld (exact)",
                  size_name(size), w, h, n_tris, nodes.size(), depth, (double)total_bounces / n_rays, lit,
                  wrong);
    return report(wrong == 0, detail);
}
