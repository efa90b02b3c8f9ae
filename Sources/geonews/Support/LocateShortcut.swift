/// Which command lines ``LocateCommand`` may parse on its own, without ArgumentParser first
/// building the argument sets of every subcommand of `geonews`.
///
/// Parsing from the root was a quarter of the instructions of a cold
/// `geonews --lat … --lon …`, and on the critical path: the resolver loads on the other core
/// meanwhile (``ResolverPreload``). Only lines made of the locate command's own options take
/// this way; anything else (a subcommand, help, `--version`, an unknown or misspelt option, a
/// stray word) goes through the root as before, so its messages are unchanged.
enum LocateShortcut {
    /// The locate command's options that take a value.
    static let valued: Set<String> = ["--lat", "--lon", "--lang", "--limit", "--category", "--provider", "--data"]
    /// Its flags.
    static let flags: Set<String> = ["--json", "--no-headlines", "--no-cache"]

    /// True when every argument is one of the locate command's options (`--name value` or
    /// `--name=value` for the valued ones), each value present, and `--lat` among them.
    static func applies(to arguments: [String]) -> Bool {
        var i = 0
        var sawLatitude = false
        while i < arguments.count {
            let argument = arguments[i]
            guard argument.hasPrefix("--") else { return false }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if flags.contains(argument) {
                i += 1
            } else if valued.contains(name) {
                sawLatitude = sawLatitude || name == "--lat"
                if name == argument {
                    guard i + 1 < arguments.count else { return false }
                    i += 2
                } else {
                    i += 1
                }
            } else {
                return false
            }
        }
        return sawLatitude
    }
}
