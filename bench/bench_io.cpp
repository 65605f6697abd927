// MPI-IO: a collective write of one array spread over all ranks (issue 15, item 2), raw C MPI
// and oompi side by side in one run.
//
// Bench collective_write: every rank writes its contiguous block (total / ranks bytes of
// doubles) of one shared file with one MPI_File_write_at_all, through a view that starts at the
// rank's block (etype = filetype = MPI_DOUBLE). Each system has its own file, opened once; a
// block of the measurement is barrier, `iters` collective writes, barrier, timed on rank 0.
// Metric: throughput (total bytes written per second, MB/s) and time per write. The files go to
// --dir (default /dev/shm, a tmpfs, when it exists; /tmp otherwise) and are deleted at the end.
//
// Options: --bytes=N (total over all ranks, 256 MiB)  --rounds=N (20)  --first-round=R
//          --dir=PATH  --max-seconds=S (120)  --quick (16 MiB, 3 rounds)

#include <oompi/oompi.hpp>

#include "support/bench_util.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

struct system_entry {
  std::string name, label;
  std::function<void(long iters)> run;
};

double time_block(const system_entry& s, long iters) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto t0 = std::chrono::steady_clock::now();
  s.run(iters);
  MPI_Barrier(MPI_COMM_WORLD);  // the write is over when every rank is done
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

std::string default_dir() {
  struct stat st{};
  return stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
}

}  // namespace

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  const oompi_bench::options opt(argc, argv);
  auto world = oompi::communicator::world();
  const int rank = world.rank(), size = world.size();
  const bool quick = opt.has("quick");
  const long total = opt.get_int("bytes", quick ? (16L << 20) : (256L << 20));
  const long rounds = opt.get_int("rounds", quick ? 3 : 20);
  const long first_round = opt.get_int("first-round", 0);
  const double max_seconds = opt.get_double("max-seconds", quick ? 20 : 120);
  const std::string dir = opt.get("dir", default_dir());

  const std::size_t n = static_cast<std::size_t>(total) / sizeof(double) / size;
  const MPI_Offset block_bytes = static_cast<MPI_Offset>(n * sizeof(double));
  std::vector<double> data(n);
  for (std::size_t i = 0; i < n; ++i) data[i] = rank + 1e-6 * static_cast<double>(i);

  long id = static_cast<long>(getpid());  // file names unique to this run, the same on all ranks
  world.bcast(id, 0);
  const std::string base = dir + "/oompi_bench_io_" + std::to_string(id);

  // Raw C: the same open, view and write as oompi does.
  MPI_File fh = MPI_FILE_NULL;
  const std::string c_path = base + "_c.bin";
  MPI_File_open(MPI_COMM_WORLD, c_path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                &fh);
  MPI_File_set_view(fh, rank * block_bytes, MPI_DOUBLE, MPI_DOUBLE, "native", MPI_INFO_NULL);
  const std::string o_path = base + "_oompi.bin";
  auto f = oompi::file::open(world, o_path, oompi::file_mode::create | oompi::file_mode::wronly);
  f.set_view<double>(rank * block_bytes);

  std::vector<system_entry> systems;
  systems.push_back({"raw_c", "MPI_File_write_at_all(fh, 0, buf, n, MPI_DOUBLE, &status)",
                     [&](long k) {
                       MPI_Status st;
                       for (long i = 0; i < k; ++i)
                         MPI_File_write_at_all(fh, 0, data.data(), static_cast<int>(n), MPI_DOUBLE,
                                               &st);
                     }});
  systems.push_back({"oompi", "f.write_at_all(0, buf) on std::vector<double>", [&](long k) {
                       for (long i = 0; i < k; ++i) f.write_at_all(0, data);
                     }});

  oompi_bench::sink out;
  const std::string bytes = std::to_string(n * sizeof(double) * size);
  if (rank == 0) {
    std::vector<std::string> names;
    std::string labels = "{";
    for (const auto& s : systems) {
      names.push_back(s.name);
      labels += std::string(labels.size() > 1 ? "," : "") + oompi_bench::json_string(s.name) +
                ":" + oompi_bench::json_string(s.label);
    }
    labels += "}";
    out.add(oompi_bench::record()
                .str("type", "meta")
                .str("bench", "io_collective_write")
                .str("title", "Collective write (MPI_File_write_at_all) on " +
                                  std::to_string(size) + " ranks to " + dir)
                .str("baseline", "raw_c")
                .raw("systems", oompi_bench::json_list(names))
                .raw("system_labels", labels)
                .str("case_label", "bytes written in all")
                .str("case_format", "bytes")
                .raw("metrics",
                     "{\"throughput_MBps\":{\"label\":\"throughput\",\"unit\":\"MB/s\","
                     "\"better\":\"higher\",\"plot\":\"logx\"},"
                     "\"time_ms\":{\"label\":\"time per write\",\"unit\":\"ms\","
                     "\"better\":\"lower\",\"plot\":\"logx\"}}")
                .raw("targets",
                     "[{\"metric\":\"throughput_MBps\",\"case\":\"" + bytes +
                         "\",\"system\":\"oompi\",\"min_ratio\":0.95,\"text\":\"issue 15: "
                         "collective write at >= 0.95x raw C throughput\"}]")
                .raw("params", "{\"rounds\":" + std::to_string(rounds) +
                                   ",\"ranks\":" + std::to_string(size) +
                                   ",\"quick\":" + (quick ? "true" : "false") + "}")
                .str("mpi", oompi_bench::mpi_library_version())
                .raw("notes", oompi_bench::json_list(
                                  {"Each rank writes a contiguous block of doubles through a view "
                                   "starting at its block; one file per system, opened once.",
                                   "One block = barrier, one collective write, barrier, timed on "
                                   "rank 0; the systems alternate in a shuffled order every round "
                                   "and the median of the per-round ratios is reported."})));
  }

  // Round -1 warms up (and allocates the files).
  oompi_bench::run_rounds("bench_io", rounds, first_round, max_seconds, [&](long round, bool recorded) {
    for (const std::size_t k : oompi_bench::round_order(systems.size(), round < 0 ? 0 : round)) {
      const double t = time_block(systems[k], 1);
      if (rank == 0 && recorded) {
        out.sample("io_collective_write", bytes, systems[k].name, round, "throughput_MBps",
                   static_cast<double>(n * sizeof(double) * size) / t / 1e6);
        out.sample("io_collective_write", bytes, systems[k].name, round, "time_ms", t * 1e3);
      }
    }
  });

  MPI_File_close(&fh);
  f.close();
  world.barrier();
  if (rank == 0) {
    MPI_File_delete(c_path.c_str(), MPI_INFO_NULL);
    oompi::file::remove(o_path);
    out.flush();
  }
  return 0;
}
