// A small mutation fuzzer for the targets where libFuzzer is not at hand (GCC builds, CI): it
// runs the seed files, then random mutations of them (bit flips, interesting bytes and numbers,
// deleted and repeated ranges, XML tokens, splices of two seeds), until its time is up. The
// random sequence is fixed, so a failure in CI reproduces. A finding (an exception escaping the
// target, an input running over 20 s; crashes and sanitizer reports abort by themselves) writes
// the input to fuzz-finding.bin in the working directory and aborts.
//   usage: FUZZER SECONDS SEED_FILE...
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "fuzz_target.h"

namespace {

constexpr unsigned kSecondsPerInput = 20;

std::vector<uint8_t> current;  // the input being run, for the finding's file

void saveFinding(const char* why) {
  std::FILE* f = std::fopen("fuzz-finding.bin", "wb");
  if (f) {
    std::fwrite(current.data(), 1, current.size(), f);
    std::fclose(f);
  }
  std::fprintf(stderr, "fuzz: finding (%s): input of %zu bytes written to fuzz-finding.bin\n", why, current.size());
}

void onAlarm(int) {
  saveFinding("an input ran too long");
  std::abort();
}

void run(const std::vector<uint8_t>& input) {
  current = input;
  alarm(kSecondsPerInput);
  try {
    LLVMFuzzerTestOneInput(input.data(), input.size());
  } catch (const std::exception& e) {
    saveFinding(e.what());
    std::abort();
  } catch (...) {
    saveFinding("an exception of unknown type");
    std::abort();
  }
  alarm(0);
}

const char* const kTokens[] = {
    "0", "-1", "1e308", "-1e308", "nan", "inf", "4294967296", "999999999999", "1e-300", "0.5", "\"", "<", ">", "/>",
    "=", "&#0;", "&amp;", "<!--", "-->", "<![CDATA[", "]]>", "#", "<drawbox>", "</drawbox>", "<boxfill>solid</boxfill>",
    "<point x=\"0\" y=\"0\" z=\"0\" />", "<size x=\"1\" y=\"1\" z=\"1\" />", "<list name=\"a\">", "</list>",
    "<runlist name=\"a\" />", "<runlist name=\"a\" times=\"1000000\" />", "<fillbox x=\"0\" y=\"0\" z=\"0\">",
    "<modefill>void</modefill>", "<setmkfluid mk=\"0\" />", "<setmkbound mk=\"0\" />", "<move x=\"1\" y=\"0\" z=\"0\" />",
    "<rotateline ang=\"90\"><point x=\"0\" y=\"0\" z=\"0\" /><point x=\"0\" y=\"1\" z=\"0\" /></rotateline>",
    "<newvarcte A=\"#1/0\" />", "#A", "<parameter key=\"TimeOut\" value=\"1e-300\" />", "mk=\"65536\"",
    "mkbound=\"0-65535\"", "dp=\"", "<lattice bound=\"2\" fluid=\"2\" />", "<drawsphere radius=\"1e9\">",
    "<drawfilestl file=\"/dev/zero\" />"};

std::vector<uint8_t> mutate(std::vector<uint8_t> v, const std::vector<std::vector<uint8_t>>& seeds, std::mt19937_64& rng) {
  auto pick = [&](size_t n) { return n ? size_t(rng() % n) : 0; };
  const int edits = 1 + int(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    switch (rng() % 7) {
      case 0:  // a bit
        if (!v.empty()) v[pick(v.size())] ^= uint8_t(1u << (rng() % 8));
        break;
      case 1: {  // an interesting byte
        static const uint8_t bytes[] = {0, 0xff, '<', '>', '"', '/', '9', '-', '.', 'e', ' ', '\n', 0x1b, 0x80};
        if (!v.empty()) v[pick(v.size())] = bytes[rng() % sizeof(bytes)];
        break;
      }
      case 2: {  // a range deleted
        if (v.empty()) break;
        const size_t at = pick(v.size()), n = std::min(v.size() - at, size_t(1 + rng() % 64));
        v.erase(v.begin() + long(at), v.begin() + long(at + n));
        break;
      }
      case 3: {  // a range repeated
        if (v.empty() || v.size() > (1u << 20)) break;
        const size_t at = pick(v.size()), n = std::min(v.size() - at, size_t(1 + rng() % 256));
        const std::vector<uint8_t> part(v.begin() + long(at), v.begin() + long(at + n));
        v.insert(v.begin() + long(pick(v.size() + 1)), part.begin(), part.end());
        break;
      }
      case 4: {  // an XML token or a number
        const char* t = kTokens[rng() % std::size(kTokens)];
        v.insert(v.begin() + long(pick(v.size() + 1)), t, t + std::strlen(t));
        break;
      }
      case 5: {  // a 4- or 8-byte number overwritten (binary formats' sizes and counts)
        static const uint64_t numbers[] = {0, 1, 0x7fffffff, 0xffffffff, 0x80000000, 0xffffffffffffffffull,
                                           0x7ff0000000000000ull /* inf */, 0x7ff8000000000000ull /* nan */};
        const size_t width = rng() % 2 ? 4 : 8;
        if (v.size() < width) break;
        const uint64_t x = numbers[rng() % std::size(numbers)];
        std::memcpy(v.data() + pick(v.size() - width + 1), &x, width);
        break;
      }
      default: {  // spliced with another seed
        const std::vector<uint8_t>& o = seeds[pick(seeds.size())];
        if (o.empty() || v.empty()) break;
        const size_t cut = pick(v.size()), from = pick(o.size());
        v.resize(cut);
        v.insert(v.end(), o.begin() + long(from), o.end());
        break;
      }
    }
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SECONDS SEED_FILE...\n", argv[0]);
    return 2;
  }
  const double seconds = std::atof(argv[1]);
  std::vector<std::vector<uint8_t>> seeds;
  for (int i = 2; i < argc; ++i) {
    std::ifstream f(argv[i], std::ios::binary);
    if (!f) {
      std::fprintf(stderr, "fuzz: cannot read seed %s\n", argv[i]);
      return 2;
    }
    seeds.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  std::signal(SIGALRM, onAlarm);
  const auto start = std::chrono::steady_clock::now();
  uint64_t runs = 0;
  for (const auto& s : seeds) run(s), ++runs;
  std::mt19937_64 rng(20261126);
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
    run(mutate(seeds[rng() % seeds.size()], seeds, rng));
    ++runs;
  }
  std::printf("fuzz: %llu inputs in %.0f s, no finding\n", static_cast<unsigned long long>(runs), seconds);
  return 0;
}
