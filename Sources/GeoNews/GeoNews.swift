@_exported import GeoNewsBoundaries
@_exported import GeoNewsClustering
@_exported import GeoNewsGeodesy
@_exported import GeoNewsHeadlines
@_exported import GeoNewsJSON
@_exported import GeoNewsPoints
@_exported import GeoNewsTraces
@_exported import GeoNewsVersion
