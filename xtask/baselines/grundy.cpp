// The plain single-threaded baseline of `cargo xtask bench grundy` (built with g++ -O2).
//
//   grundy-baseline dag FILE.bin [--all]   Grundy values of an acyclic graph in gamegraph's
//                                          binary format (the checksum is not verified), by
//                                          out-degree counting over a reverse CSR; prints the
//                                          value of the start vertex, or `V VALUE` lines.
//   grundy-baseline heaps FILE             `SIZE LIMIT` lines: prints 1 or 2 (normal play).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

static bool read_all(FILE* f, void* p, size_t n) { return fread(p, 1, n, f) == n; }

static int dag(const char* path, bool all) {
    FILE* f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    unsigned char header[40];
    if (!read_all(f, header, 40) || memcmp(header, "\x89GGRAPH\n", 8) != 0) {
        fprintf(stderr, "not a gamegraph binary file\n");
        return 1;
    }
    uint64_t n, m, start;
    memcpy(&n, header + 16, 8);
    memcpy(&m, header + 24, 8);
    memcpy(&start, header + 32, 8);
    std::vector<uint64_t> off(n + 1);
    std::vector<uint32_t> to(m);
    if (!read_all(f, off.data(), 8 * (n + 1)) || !read_all(f, to.data(), 4 * m)) {
        fprintf(stderr, "truncated file\n");
        return 1;
    }
    fclose(f);
    // Reverse CSR.
    std::vector<uint64_t> roff(n + 1, 0);
    for (uint64_t i = 0; i < m; i++) roff[to[i] + 1]++;
    for (uint64_t v = 0; v < n; v++) roff[v + 1] += roff[v];
    std::vector<uint32_t> rto(m);
    {
        std::vector<uint64_t> fill(roff.begin(), roff.end() - 1);
        for (uint64_t u = 0; u < n; u++)
            for (uint64_t i = off[u]; i < off[u + 1]; i++) rto[fill[to[i]]++] = (uint32_t)u;
    }
    std::vector<uint32_t> count(n), value(n, 0), queue;
    queue.reserve(n);
    for (uint64_t v = 0; v < n; v++) {
        count[v] = (uint32_t)(off[v + 1] - off[v]);
        if (count[v] == 0) queue.push_back((uint32_t)v);
    }
    std::vector<uint64_t> seen;
    uint64_t stamp = 0;
    for (size_t head = 0; head < queue.size(); head++) {
        uint32_t v = queue[head];
        uint64_t deg = off[v + 1] - off[v];
        if (seen.size() <= deg) seen.resize(deg + 1, 0);
        stamp++;
        for (uint64_t i = off[v]; i < off[v + 1]; i++)
            if (value[to[i]] <= deg) seen[value[to[i]]] = stamp;
        uint32_t mex = 0;
        while (seen[mex] == stamp) mex++;
        value[v] = mex;
        for (uint64_t i = roff[v]; i < roff[v + 1]; i++)
            if (--count[rto[i]] == 0) queue.push_back(rto[i]);
    }
    if (queue.size() != n) { fprintf(stderr, "the graph has a cycle\n"); return 1; }
    if (all) {
        std::vector<char> buf;
        buf.reserve(1 << 20);
        char line[48];
        for (uint64_t v = 0; v < n; v++) {
            int len = snprintf(line, sizeof line, "%llu %u\n", (unsigned long long)(v + 1), value[v]);
            buf.insert(buf.end(), line, line + len);
            if (buf.size() > (1 << 20)) { fwrite(buf.data(), 1, buf.size(), stdout); buf.clear(); }
        }
        fwrite(buf.data(), 1, buf.size(), stdout);
    } else if (n > 0) {
        printf("%u\n", value[start]);
    }
    return 0;
}

static int heaps(const char* path) {
    FILE* f = fopen(path, "r");
    if (!f) { perror(path); return 1; }
    unsigned long long n, m, s = 0;
    char line[128];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        if (sscanf(line, "%llu %llu", &n, &m) != 2) continue;
        s ^= (m >= n) ? n : n % (m + 1);
    }
    fclose(f);
    printf("%d\n", s ? 1 : 2);
    return 0;
}

int main(int argc, char** argv) {
    if (argc >= 3 && strcmp(argv[1], "dag") == 0)
        return dag(argv[2], argc >= 4 && strcmp(argv[3], "--all") == 0);
    if (argc >= 3 && strcmp(argv[1], "heaps") == 0) return heaps(argv[2]);
    fprintf(stderr, "usage: grundy-baseline dag FILE.bin [--all] | heaps FILE\n");
    return 2;
}
