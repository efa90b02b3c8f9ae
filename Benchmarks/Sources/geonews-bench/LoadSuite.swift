import GeoNews
import GeoNewsBenchmarking

/// Load time of the memory-mapped index and of the catalogue, and the memory they keep resident.
enum LoadSuite {
    static func run(_ ctx: BenchContext) throws {
        let dir = ctx.directory
        let indexPath = dir.file("country-index.bin")
        let runs = max(ctx.options.runs, 11)

        // Memory first, while this process has mapped nothing of the index.
        var memory = Table(
            "load: resident memory (VmRSS from /proc/self/status)",
            columns: ["state", "VmRSS MB", "change MB"])
        var last = ProcessStatus.residentMB()
        func step(_ label: String, _ key: String) {
            let now = ProcessStatus.residentMB()
            memory.add(label, fixed(now, 1), (now >= last ? "+" : "") + fixed(now - last, 1))
            ctx.figures.record("load.rss.\(key).mb", now)
            last = now
        }
        step("process start (runtime, Foundation)", "start")
        let catalogue = try Catalogue.load(from: dir)
        let ids = catalogue.countries.map(\.id)
        step("after Catalogue.load (countries.json)", "catalogue")
        do {
            let index = try CountryIndex(path: indexPath, catalogueIDs: ids)
            step("after CountryIndex mmap + header", "index_mapped")
            var rng = SplitMix64(seed: ctx.options.seed)
            var sum = 0
            for _ in 0..<1_000_000 { sum &+= index.countryIndex(at: rng.onSphere()) ?? -1 }
            consume(sum)
            step("after 1M lookups at random points", "index_queried")
        }
        step("after unmapping it", "index_unmapped")
        let resolver = try CountryResolver.load(from: dir)
        step("after CountryResolver.load", "resolver")
        consume(resolver)
        let fileMB = Double(try MappedFile(path: indexPath).bytes.count) / 1_048_576
        memory.add("country-index.bin size", fixed(fileMB, 1), "")
        ctx.figures.record("load.index_file.mb", fileMB)

        var times = Table(
            "load: wall time (median of \(runs), file in the page cache)",
            columns: ["step", "ms"])
        func time(_ label: String, _ key: String, _ body: () throws -> Void) rethrows {
            let t = try Measure.median(runs: runs, body)
            times.add(label, fixed(t * 1e3, 3))
            ctx.figures.record("load.\(key).ms", t * 1e3)
        }
        try time("CountryIndex: mmap + header (as each start does)", "index_unchecked") {
            consume(try CountryIndex(path: indexPath, catalogueIDs: ids))
        }
        try time("CountryIndex: + verify() (checksum, layout; geonews-index --check)", "index_checked") {
            try CountryIndex(path: indexPath, catalogueIDs: ids).verify()
        }
        try time("Catalogue.load (JSON decode of countries.json)", "catalogue") {
            consume(try Catalogue.load(from: dir))
        }
        try time("CountryResolver.load (both, as `geonews` does)", "resolver") {
            consume(try CountryResolver.load(from: dir))
        }
        memory.print()
        times.print()
    }
}
