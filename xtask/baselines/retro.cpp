// The naive baseline of `cargo xtask bench retro`: retrograde win/lose/draw analysis
// with depth and optimal moves, single-threaded, reading one character at a time.
//
// Reads the header text format (`N M`, the start vertex, M arcs `u v`, 1-based; `#`
// comments) from the file named on the command line, builds successor and predecessor
// arrays (CSR), runs the classic queue algorithm with successor counters (terminal
// positions are L with depth 0; popping an L labels its unlabelled predecessors W with
// depth + 1; popping a W decrements its unlabelled predecessors' counters, and a counter
// reaching zero labels L with depth + 1), picks the optimal move of every vertex (ties
// to the smallest id) and prints the answer for the start vertex: 1, 2 or 0.
//
// Build: g++ -O2 -o retro-baseline retro.cpp
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct Reader {
    FILE* f;
    std::vector<char> buf = std::vector<char>(1 << 20);
    size_t pos = 0, len = 0;
    int get() {
        if (pos == len) {
            len = fread(buf.data(), 1, buf.size(), f);
            pos = 0;
            if (len == 0) return -1;
        }
        return buf[pos++];
    }
    // The next unsigned number, skipping white space and # comments; exits on bad input.
    uint64_t number() {
        int c = get();
        for (;;) {
            if (c == '#') {
                while (c != '\n' && c != -1) c = get();
            } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
                c = get();
            } else {
                break;
            }
        }
        if (c < '0' || c > '9') {
            fprintf(stderr, "error: expected a number\n");
            exit(2);
        }
        uint64_t x = 0;
        while (c >= '0' && c <= '9') {
            x = x * 10 + (c - '0');
            c = get();
        }
        return x;
    }
};

const uint32_t NONE = UINT32_MAX;

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    FILE* f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    Reader r{f};
    uint64_t n = r.number(), m = r.number(), start = r.number();
    if (n == 0 || start < 1 || start > n) {
        fprintf(stderr, "error: bad start vertex\n");
        return 2;
    }
    std::vector<uint32_t> src(m), dst(m);
    for (uint64_t i = 0; i < m; i++) {
        uint64_t u = r.number(), v = r.number();
        if (u < 1 || u > n || v < 1 || v > n) {
            fprintf(stderr, "error: vertex out of range\n");
            return 2;
        }
        src[i] = uint32_t(u - 1);
        dst[i] = uint32_t(v - 1);
    }
    fclose(f);

    // Successor and predecessor CSR.
    std::vector<uint64_t> soff(n + 1, 0), poff(n + 1, 0);
    for (uint64_t i = 0; i < m; i++) {
        soff[src[i] + 1]++;
        poff[dst[i] + 1]++;
    }
    for (uint64_t v = 0; v < n; v++) {
        soff[v + 1] += soff[v];
        poff[v + 1] += poff[v];
    }
    std::vector<uint32_t> succ(m), pred(m);
    {
        std::vector<uint64_t> sfill(soff.begin(), soff.end() - 1), pfill(poff.begin(), poff.end() - 1);
        for (uint64_t i = 0; i < m; i++) {
            succ[sfill[src[i]]++] = dst[i];
            pred[pfill[dst[i]]++] = src[i];
        }
    }
    std::vector<uint32_t>().swap(src);
    std::vector<uint32_t>().swap(dst);

    // The queue algorithm. label: 0 unknown (draw at the end), 1 W, 2 L.
    std::vector<uint8_t> label(n, 0);
    std::vector<uint32_t> counter(n), depth(n, NONE), queue;
    queue.reserve(n);
    for (uint64_t v = 0; v < n; v++) {
        counter[v] = uint32_t(soff[v + 1] - soff[v]);
        if (counter[v] == 0) {
            label[v] = 2;
            depth[v] = 0;
            queue.push_back(uint32_t(v));
        }
    }
    for (size_t head = 0; head < queue.size(); head++) {
        uint32_t v = queue[head];
        uint32_t d = depth[v] + 1;
        for (uint64_t i = poff[v]; i < poff[v + 1]; i++) {
            uint32_t u = pred[i];
            if (label[u] != 0) continue;
            if (label[v] == 2) {
                label[u] = 1;
                depth[u] = d;
                queue.push_back(u);
            } else if (--counter[u] == 0) {
                label[u] = 2;
                depth[u] = d;
                queue.push_back(u);
            }
        }
    }

    // Optimal moves: W to an L successor of least depth, L to a successor of greatest
    // depth, D to a D successor; the smallest id on ties.
    std::vector<uint32_t> move(n, NONE);
    uint64_t counts[3] = {0, 0, 0};
    for (uint64_t v = 0; v < n; v++) {
        counts[label[v]]++;
        uint32_t best = NONE;
        for (uint64_t i = soff[v]; i < soff[v + 1]; i++) {
            uint32_t s = succ[i];
            bool ok;
            if (label[v] == 1) ok = label[s] == 2 && depth[s] + 1 == depth[v];
            else if (label[v] == 2) ok = depth[s] + 1 == depth[v];
            else ok = label[s] == 0;
            if (ok && s < best) best = s;
        }
        move[v] = best;
    }
    int answer = label[start - 1] == 1 ? 1 : label[start - 1] == 2 ? 2 : 0;
    printf("%d\n", answer);
    fprintf(stderr, "W %llu L %llu D %llu, move of start %lld\n", (unsigned long long)counts[1],
            (unsigned long long)counts[2], (unsigned long long)counts[0],
            move[start - 1] == NONE ? -1LL : (long long)move[start - 1] + 1);
    return 0;
}
