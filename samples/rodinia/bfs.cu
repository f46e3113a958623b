/*
 * bfs -- level-synchronous breadth-first search over a directed graph in
 * compressed-sparse-row form.  Each level is two launches: the first
 * expands every node of the frontier (a mask) and marks its unvisited
 * neighbours, the second turns the marks into the next frontier and raises
 * a flag if any node was added.  The host relaunches until the flag stays
 * down, so the number of launches follows the graph's depth.
 *
 * Edges mostly point a short way forward (plus a few random long ones), so
 * the graph is deep and the frontier irregular; some nodes have no
 * incoming edges and stay unreached.  Levels are integers: they must equal
 * a host queue-based BFS exactly.
 */
#include "sample.h"

#include <vector>

__global__ void expand_frontier(const int *row_start, const int *edges, const int *level, char *frontier,
                                char *next, const char *visited, int *next_level, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !frontier[v])
        return;
    frontier[v] = 0;
    int lv = level[v];
    for (int e = row_start[v]; e < row_start[v + 1]; e++) {
        int w = edges[e];
        if (!visited[w]) {
            /* Several frontier nodes may reach w in the same level; they all
             * write the same value, so the race is benign. */
            next_level[w] = lv + 1;
            next[w] = 1;
        }
    }
}

__global__ void advance_frontier(char *frontier, char *next, char *visited, const int *next_level, int *level,
                                 int *grew, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !next[v])
        return;
    next[v] = 0;
    frontier[v] = 1;
    visited[v] = 1;
    level[v] = next_level[v];
    *grew = 1;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "bfs");
    int n = size == SIZE_TINY ? 3000 : size == SIZE_SMALL ? 100000 : 1000000;
    int window = size == SIZE_TINY ? 24 : size == SIZE_SMALL ? 1000 : 5000;

    /* Build the graph: out-degree 1..7, targets mostly in [v-window/4, v+window],
     * the first always forward so the search keeps moving. */
    lcg rng(11);
    std::vector<int> row_start(n + 1), edges;
    for (int v = 0; v < n; v++) {
        row_start[v] = (int)edges.size();
        int deg = 1 + (int)(rng.next() % 7);
        for (int k = 0; k < deg; k++) {
            int w;
            if (k == 0)
                w = v + 1 + (int)(rng.next() % window);
            else if (rng.next() % 500 == 0)
                w = (int)(rng.next() % n);
            else
                w = v - window / 4 + (int)(rng.next() % (window + window / 4 + 1));
            if (w < 0 || w >= n || w == v)
                continue;
            if (w % 97 == 13) /* these nodes are never reached */
                continue;
            edges.push_back(w);
        }
    }
    row_start[n] = (int)edges.size();
    int m = (int)edges.size();

    /* Host reference: queue BFS from node 0. */
    std::vector<int> want(n, -1), queue;
    want[0] = 0;
    queue.push_back(0);
    for (size_t q = 0; q < queue.size(); q++) {
        int v = queue[q];
        for (int e = row_start[v]; e < row_start[v + 1]; e++)
            if (want[edges[e]] < 0) {
                want[edges[e]] = want[v] + 1;
                queue.push_back(edges[e]);
            }
    }

    std::vector<int> level(n, -1);
    std::vector<char> frontier(n, 0), visited(n, 0);
    level[0] = 0;
    frontier[0] = visited[0] = 1;

    int *d_row, *d_edges, *d_level, *d_next_level, *d_grew;
    char *d_frontier, *d_next, *d_visited;
    CHECK(cudaMalloc(&d_row, sizeof(int) * (n + 1)));
    CHECK(cudaMalloc(&d_edges, sizeof(int) * (m > 0 ? m : 1)));
    CHECK(cudaMalloc(&d_level, sizeof(int) * n));
    CHECK(cudaMalloc(&d_next_level, sizeof(int) * n));
    CHECK(cudaMalloc(&d_grew, sizeof(int)));
    CHECK(cudaMalloc(&d_frontier, n));
    CHECK(cudaMalloc(&d_next, n));
    CHECK(cudaMalloc(&d_visited, n));
    CHECK(cudaMemcpy(d_row, row_start.data(), sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_edges, edges.data(), sizeof(int) * m, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_level, level.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_frontier, frontier.data(), n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_visited, visited.data(), n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_next, 0, n));

    int block = 256, grid = (n + block - 1) / block;
    int launches = 0, grew = 1;
    while (grew) {
        CHECK(cudaMemset(d_grew, 0, sizeof(int)));
        expand_frontier<<<grid, block>>>(d_row, d_edges, d_level, d_frontier, d_next, d_visited, d_next_level, n);
        CHECK(cudaGetLastError());
        advance_frontier<<<grid, block>>>(d_frontier, d_next, d_visited, d_next_level, d_level, d_grew, n);
        CHECK(cudaGetLastError());
        launches += 2;
        CHECK(cudaMemcpy(&grew, d_grew, sizeof(int), cudaMemcpyDeviceToHost));
        if (launches > 2 * (n + 1)) /* a frontier that never empties is a failure, not a hang */
            break;
    }
    CHECK(cudaMemcpy(level.data(), d_level, sizeof(int) * n, cudaMemcpyDeviceToHost));

    int wrong = 0, first = -1, depth = 0, reached = 0;
    for (int v = 0; v < n; v++) {
        if (level[v] != want[v] && wrong++ == 0)
            first = v;
        if (want[v] >= 0)
            reached++;
        if (want[v] > depth)
            depth = want[v];
    }
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "size=%s nodes=%d edges=%d reached=%d depth=%d launches=%d level mismatches=%d (tolerance: exact)",
                  size_name(size), n, m, reached, depth, launches, wrong);
    if (wrong)
        std::snprintf(detail + std::strlen(detail), sizeof detail - std::strlen(detail), " first node %d: %d != %d",
                      first, level[first], want[first]);
    CHECK(cudaFree(d_row));
    CHECK(cudaFree(d_edges));
    CHECK(cudaFree(d_level));
    CHECK(cudaFree(d_next_level));
    CHECK(cudaFree(d_grew));
    CHECK(cudaFree(d_frontier));
    CHECK(cudaFree(d_next));
    CHECK(cudaFree(d_visited));
    return report(wrong == 0 && depth > 0, detail);
}
