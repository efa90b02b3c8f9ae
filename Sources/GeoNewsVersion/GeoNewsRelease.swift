/// The release of GeoNews: the one place its version is written.
///
/// `geonews --version`, `geonews-serve --version`, the server's `/healthz`, the `info.version`
/// of the served OpenAPI description and the `User-Agent` that headline providers see all
/// read it from here. CHANGELOG.md has a section for each release.
public enum GeoNewsRelease {
    /// Semantic version of this release.
    public static let version = "0.6.0"
}
