/*
 * libgeonews: GeoNews's resolver in process, for C and anything that calls C (Python's
 * ctypes, DuckDB, Spark through Python). docs/c-library.md shows how to build and use it.
 *
 * One handle, opened once, answers any number of calls from any number of threads at once.
 * Every string the library returns belongs to the handle (or, for geonews_version and
 * geonews_reason_name, to the library) and stays valid until geonews_close; never free one.
 */
#ifndef GEONEWS_H
#define GEONEWS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface; geonews_abi_version() gives the library's. */
#define GEONEWS_ABI_VERSION 1

/* An opened data folder and the resolver over it. */
typedef struct geonews geonews;

/* Why a news country is suggested (geonews_result.reason). */
enum geonews_reason {
    GEONEWS_REASON_INSIDE = 0,         /* the position is inside it */
    GEONEWS_REASON_SOVEREIGN = 1,      /* it is the sovereign of the territory that holds the position */
    GEONEWS_REASON_OFFSHORE = 2,       /* the nearest news country's land lies within the near-shore distance */
    GEONEWS_REASON_NEAREST_MARKER = 3  /* the nearest news country's marker */
};

/* Why a position was not resolved (geonews_result.error). */
enum geonews_error {
    GEONEWS_OK = 0,
    GEONEWS_ERROR_LATITUDE = 1,   /* NaN, infinite, or outside -90..90 */
    GEONEWS_ERROR_LONGITUDE = 2   /* NaN, infinite, or outside -180..180 */
};

/* The zone of a position that is not resolved (the open ocean's zones are -1 to -25). */
#define GEONEWS_NO_ZONE INT32_MIN

/*
 * The answer for one position: what `geonews resolve` writes, by index. Indexes of countries
 * are the catalogue's (geonews_country_iso2, geonews_country_name); the zone's is
 * geonews_zone_id's. A position that is not resolved has error set, -1 as its countries and
 * reason, GEONEWS_NO_ZONE as its zone and 0 as its distance.
 */
typedef struct geonews_result {
    int32_t country;      /* the country or territory that holds the position; -1 at sea */
    int32_t suggested;    /* the suggested news country */
    int32_t reason;       /* enum geonews_reason */
    int32_t zone;         /* the time zone: geonews_zone_id(handle, zone); below 0 the open ocean's */
    double distance_km;   /* the suggestion's distance: 0 inside, else to its land or marker */
    int32_t error;        /* enum geonews_error */
    int32_t reserved;     /* 0 */
} geonews_result;

/* The library's release, such as "0.6.0". */
const char *geonews_version(void);

/* GEONEWS_ABI_VERSION of the library. */
int geonews_abi_version(void);

/*
 * Opens the data folder `data_dir` (a GeoNews `Data/` folder, or NULL to look where
 * `geonews` does: $GEONEWS_DATA, then beside the executable and the working directory). The
 * area and land indexes are read from $GEONEWS_BUILD_DATA, an installed layout or the cache
 * folder; when none holds them, the committed packs are unpacked into the cache first (about a
 * second, once). On failure returns NULL and writes one line naming the file and what is wrong
 * into `error` (at most error_size bytes, always terminated; `error` may be NULL).
 */
geonews *geonews_open(const char *data_dir, char *error, size_t error_size);

/*
 * As geonews_open, but the area and land indexes are read from `index_dir` alone: when it does
 * not hold the ones the data folder records, they are unpacked into it from the packs first
 * (the folder is made when missing). For a process whose home is read-only, such as a Spark
 * executor: name a writable folder. Checks the indexes' checksums at each open (about 0.2 s).
 */
geonews *geonews_open_at(const char *data_dir, const char *index_dir, char *error, size_t error_size);

/* Closes the handle; every string it returned is freed. NULL is ignored. */
void geonews_close(geonews *handle);

/*
 * Resolves `count` positions, `latitudes[i]` and `longitudes[i]` in degrees, into
 * `results[i]`. Returns how many were resolved (the others have error set), or -1 when an
 * argument is NULL (with count > 0). Never blocks on anything but the CPU; call it from as
 * many threads at once as there are cores.
 */
int64_t geonews_resolve(const geonews *handle, const double *latitudes, const double *longitudes, size_t count,
                        geonews_result *results);

/*
 * The answers as columns, for callers that build columns (Arrow, NumPy, DuckDB vectors): each
 * array, when not NULL, receives `count` elements. Countries are written as indexes into the
 * handle's distinct ISO codes (geonews_code; entries that share a code, such as Somaliland and
 * Somalia, share the index), -1 at sea or for a position not resolved; the zone as an index
 * into the distinct zone ids (geonews_zone_name), -1 when not resolved; the reason as enum
 * geonews_reason, -1 when not resolved; the distance as in geonews_result, 0 when not
 * resolved; the error as enum geonews_error. When country, suggested, reason and distance_km
 * are all NULL, only the time zone is worked out (the same zone, from the zones' index alone:
 * no land or news marker is read), about five times as fast.
 */
typedef struct geonews_columns {
    int16_t *country;
    int16_t *suggested;
    int8_t *reason;
    int16_t *zone;
    double *distance_km;
    int8_t *error;
} geonews_columns;

/* As geonews_resolve, into columns. Returns how many were resolved, or -1 when an argument is
 * NULL (with count > 0). */
int64_t geonews_resolve_columns(const geonews *handle, const double *latitudes, const double *longitudes, size_t count,
                                const geonews_columns *columns);

/*
 * Everything `geonews --json --no-headlines` prints for one position, as one JSON object: the
 * country, the suggestion with its reason and distance, the nearest land at sea, the distance
 * to the area's edge, the time zone with its UTC offset now, the region and the nearest
 * populated place (the keys of docs/cli.md). `language` names the names' language ("fr", "zht"; NULL or
 * an unknown code gives English). Writes at most `size` bytes into `json`, always terminated
 * when size > 0, and returns the whole text's length: when that is `size` or more, the text was
 * cut; call again with a larger buffer. Returns -1 when the handle is NULL or `json` is NULL
 * with size > 0; -2 when the latitude is NaN, infinite or outside -90..90, -3 the same for the
 * longitude; -4 when a file it reads (places.tsv.gz, regions.bin, zoneinfo.bin) is missing or
 * damaged, with that message in `json`. The first call reads those files and builds the places'
 * index into the index folder (under a second, once); later calls take microseconds.
 */
int64_t geonews_locate_json(const geonews *handle, double latitude, double longitude, const char *language, char *json,
                            size_t size);
/*
 * The region and the nearest populated place of positions, as `geonews resolve --region
 * --place` writes them, by index. The region is the first-level region (state, province) of the
 * country that holds the position: the one whose polygons hold it, else that country's nearest;
 * -1 with no country, or in a country without regions. The place is the nearest populated place
 * of GeoNames (cities500) in that country, or with no country the nearest within 50 km; -1
 * where there is none. Each array, when not NULL, receives `count` elements.
 */
typedef struct geonews_place_columns {
    int32_t *region;            /* geonews_region_iso3166_2, _geonames, _name; -1 for none */
    int32_t *place;             /* geonews_place_name, geonews_place_geonameid; -1 for none */
    double *place_distance_km;  /* the great-circle distance to the place; 0 where there is none */
} geonews_place_columns;
/* Reads the regions and the places (regions.bin, places.tsv.gz; the places' index is built into
 * the index folder once, under a second) and makes their names. Returns 0, or -1 with one line
 * naming the file and what is wrong in `error` (at most error_size bytes, always terminated). */
int geonews_load_places(const geonews *handle, char *error, size_t error_size);
/* As geonews_resolve_columns, into place columns, and into `columns` as well when it is not NULL
 * (from the same resolution of each position, so a caller that wants both resolves once):
 * returns how many positions were resolved (the others get -1 and 0), -1 when an argument
 * other than `columns` is NULL (with count > 0), -4 when the regions or the places cannot be read
 * (geonews_load_places gives the message). Loads them at the first call. */
int64_t geonews_resolve_places(const geonews *handle, const double *latitudes, const double *longitudes, size_t count,
                               const geonews_columns *columns, const geonews_place_columns *place_columns);
/* The number of regions, and each one's ISO 3166-2 code ("" where it has none), GeoNames admin1
 * code ("FR.11") and English name; 0 and NULL before the regions are loaded or outside. */
int32_t geonews_region_count(const geonews *handle);
const char *geonews_region_iso3166_2(const geonews *handle, int32_t region);
const char *geonews_region_geonames(const geonews *handle, int32_t region);
const char *geonews_region_name(const geonews *handle, int32_t region);
/* The number of places, and each one's GeoNames name and id; 0, NULL and -1 before the places
 * are loaded or outside. */
int32_t geonews_place_count(const geonews *handle);
const char *geonews_place_name(const geonews *handle, int32_t place);
int64_t geonews_place_geonameid(const geonews *handle, int32_t place);
/* The number of distinct ISO 3166-1 alpha-2 codes of the catalogue, and each ("" among them
 * for the entries with none), sorted; NULL outside. */
int32_t geonews_code_count(const geonews *handle);
const char *geonews_code(const geonews *handle, int32_t code);

/* The number of distinct zone ids a result can name, and each, sorted; NULL outside. */
int32_t geonews_zone_name_count(const geonews *handle);
const char *geonews_zone_name(const geonews *handle, int32_t zone);

/* The number of countries and territories in the catalogue. */
int32_t geonews_country_count(const geonews *handle);

/* A country's ISO 3166-1 alpha-2 code, "" for the few entries with none, NULL for an index
 * outside the catalogue (such as -1). */
const char *geonews_country_iso2(const geonews *handle, int32_t country);

/* A country's ISO 3166-1 alpha-3 code, "" for the few entries with none, NULL outside. */
const char *geonews_country_iso3(const geonews *handle, int32_t country);

/* A country's English name, NULL outside the catalogue. */
const char *geonews_country_name(const geonews *handle, int32_t country);

/* A time zone's IANA id ("Europe/Paris", or "Etc/GMT+2" on the open ocean), NULL for an
 * index no result holds (GEONEWS_NO_ZONE among them). */
const char *geonews_zone_id(const geonews *handle, int32_t zone);

/* A reason's name as `geonews resolve` writes it ("inside", "sovereign", "offshore",
 * "nearest-marker"), NULL for another value. */
const char *geonews_reason_name(int32_t reason);

#ifdef __cplusplus
}
#endif

#endif
