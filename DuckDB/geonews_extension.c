/*
 * geonews.duckdb_extension: GeoNews's resolver as DuckDB scalar functions, through DuckDB's
 * C extension API (the function table of C API v1.2.0, so any DuckDB from 1.2 on loads it) and
 * libgeonews (geonews.h), which the extension finds beside itself. docs/duckdb.md shows its use.
 *
 *   geonews_country(lat, lon)       the ISO code of the country or territory that holds the
 *                                   position; NULL at sea
 *   geonews_news_country(lat, lon)  the suggested news country's ISO code
 *   geonews_time_zone(lat, lon)     the IANA time zone
 *   geonews_resolve(lat, lon)       all of `geonews resolve`'s columns, as a STRUCT
 *   geonews_region(lat, lon)        the region of the country that holds the position, as a
 *                                   STRUCT(iso3166_2, geonames, name); NULL with none
 *   geonews_place(lat, lon)         the nearest populated place (GeoNames), as a
 *                                   STRUCT(name, geonameid, distance_km); NULL with none
 *
 * The codes, zones and reasons are ENUMs over the catalogue's names: no string is made per row,
 * and they compare, group and cast as VARCHAR. A row whose latitude or longitude is NULL answers
 * NULL; one that is NaN, infinite or out of range answers NULL too, and geonews_resolve names
 * why in its `error` field.
 *
 * Built by Scripts/build-duckdb-extension, against the headers of the DuckDB release it names.
 */
#define DUCKDB_EXTENSION_NAME geonews
#define DUCKDB_EXTENSION_API_VERSION_MAJOR 1
#define DUCKDB_EXTENSION_API_VERSION_MINOR 2
#define DUCKDB_EXTENSION_API_VERSION_PATCH 0
#include "duckdb_extension.h"

#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "geonews.h"

/* The function table DuckDB hands over at LOAD (defined by the entry point, at the end). */
DUCKDB_EXTENSION_EXTERN

/* The resolver and the ENUM types over its names, made at the first LOAD in the process and
 * kept while the process lives (DuckDB never unloads an extension). */
static struct {
    pthread_mutex_t lock;
    geonews *handle;
    duckdb_logical_type code_type, zone_type, reason_type;
    duckdb_type code_width, zone_width, reason_width;  /* the ENUMs' storage: UTINYINT or USMALLINT */
    /* The regions and places, read at the first call of geonews_region or geonews_place (they
     * cost about 0.4 s and some megabytes, which the other functions never need). */
    pthread_once_t places_once;
    int places_loaded;
    char places_error[1024];
} shared = {.lock = PTHREAD_MUTEX_INITIALIZER, .places_once = PTHREAD_ONCE_INIT};

static void load_places(void) {
    shared.places_loaded = geonews_load_places(shared.handle, shared.places_error, sizeof shared.places_error) == 0;
}

/* How much of a chunk's answers a function needs, and a chunk holds: the time zone (with the
 * error) comes from the zones' index alone, several times faster than the whole resolution. */
enum level { NONE = 0, ZONE = 1, ALL = 2 };

/* What each function answers (its extra info). */
enum answer { ANSWER_COUNTRY, ANSWER_NEWS_COUNTRY, ANSWER_TIME_ZONE, ANSWER_RESOLVE, ANSWER_REGION, ANSWER_PLACE };

/*
 * One thread's last chunk: the positions it resolved (a NULL input as NaN) and the answers.
 * `SELECT geonews_country(lat, lon), geonews_time_zone(lat, lon)` evaluates both functions on
 * the same chunk, one after the other, on one thread: the second finds the same positions here
 * (compared whole, not by address) and reads the answers instead of resolving them again.
 */
typedef struct chunk {
    size_t capacity, count;
    int valid;  /* which answers are those of lat and lon: enum level ALL, ZONE (the zone and the error) or NONE */
    double *lat, *lon, *scratch_lat, *scratch_lon;
    int16_t *country, *suggested, *zone;
    int8_t *reason, *error;
    double *distance_km;
    int places_valid;  /* region, place and place_km are those of lat and lon */
    int32_t *region, *place;
    double *place_km;
} chunk;

static pthread_key_t chunk_key;
static pthread_once_t chunk_key_once = PTHREAD_ONCE_INIT;

static void chunk_free(void *p) {
    chunk *c = p;
    if (!c) return;
    free(c->lat);
    free(c->lon);
    free(c->scratch_lat);
    free(c->scratch_lon);
    free(c->country);
    free(c->suggested);
    free(c->zone);
    free(c->reason);
    free(c->error);
    free(c->distance_km);
    free(c->region);
    free(c->place);
    free(c->place_km);
    free(c);
}

static void chunk_key_make(void) { pthread_key_create(&chunk_key, chunk_free); }

/* This thread's chunk, with room for `count` rows; NULL when memory is short. */
static chunk *chunk_for(size_t count) {
    pthread_once(&chunk_key_once, chunk_key_make);
    chunk *c = pthread_getspecific(chunk_key);
    if (c && c->capacity >= count) return c;
    chunk_free(c);
    pthread_setspecific(chunk_key, NULL);
    size_t n = count < 2048 ? 2048 : count;
    c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->capacity = n;
    c->lat = malloc(n * sizeof(double));
    c->lon = malloc(n * sizeof(double));
    c->scratch_lat = malloc(n * sizeof(double));
    c->scratch_lon = malloc(n * sizeof(double));
    c->country = malloc(n * sizeof(int16_t));
    c->suggested = malloc(n * sizeof(int16_t));
    c->zone = malloc(n * sizeof(int16_t));
    c->reason = malloc(n);
    c->error = malloc(n);
    c->distance_km = malloc(n * sizeof(double));
    c->region = malloc(n * sizeof(int32_t));
    c->place = malloc(n * sizeof(int32_t));
    c->place_km = malloc(n * sizeof(double));
    if (!c->lat || !c->lon || !c->scratch_lat || !c->scratch_lon || !c->country || !c->suggested || !c->zone ||
        !c->reason || !c->error || !c->distance_km || !c->region || !c->place || !c->place_km) {
        chunk_free(c);
        return NULL;
    }
    pthread_setspecific(chunk_key, c);
    return c;
}

/* The positions of `input` resolved at least to `need`, from this thread's last chunk when they
 * are the same and it holds that much. */
static chunk *resolved(duckdb_data_chunk input, enum level need, const char **failure) {
    size_t n = duckdb_data_chunk_get_size(input);
    chunk *c = chunk_for(n);
    if (!c) {
        *failure = "geonews: out of memory for a chunk of positions";
        return NULL;
    }
    duckdb_vector lat_vector = duckdb_data_chunk_get_vector(input, 0);
    duckdb_vector lon_vector = duckdb_data_chunk_get_vector(input, 1);
    const double *lat = duckdb_vector_get_data(lat_vector), *lon = duckdb_vector_get_data(lon_vector);
    uint64_t *lat_valid = duckdb_vector_get_validity(lat_vector), *lon_valid = duckdb_vector_get_validity(lon_vector);
    for (size_t i = 0; i < n; i++) {
        int present = (!lat_valid || duckdb_validity_row_is_valid(lat_valid, i)) &&
                      (!lon_valid || duckdb_validity_row_is_valid(lon_valid, i));
        c->scratch_lat[i] = present ? lat[i] : NAN;
        c->scratch_lon[i] = present ? lon[i] : NAN;
    }
    int same = c->valid != NONE && c->count == n && memcmp(c->scratch_lat, c->lat, n * sizeof(double)) == 0 &&
               memcmp(c->scratch_lon, c->lon, n * sizeof(double)) == 0;
    if (same && c->valid >= (int)need) return c;
    if (!same) {
        double *t = c->lat;
        c->lat = c->scratch_lat;
        c->scratch_lat = t;
        t = c->lon;
        c->lon = c->scratch_lon;
        c->scratch_lon = t;
        c->count = n;
        c->places_valid = 0;
    }
    /* With only the zone and the error asked for, the library works out the zone alone. */
    geonews_columns columns = {c->country, c->suggested, c->reason, c->zone, c->distance_km, c->error};
    if (need == ZONE) columns = (geonews_columns){NULL, NULL, NULL, c->zone, NULL, c->error};
    c->valid = geonews_resolve_columns(shared.handle, c->lat, c->lon, n, &columns) >= 0 ? (int)need : NONE;
    if (c->valid == NONE) {
        *failure = "geonews: geonews_resolve_columns refused its arguments";
        return NULL;
    }
    return c;
}

/* The region and place of `c`'s positions, computed at the first function that asks for them. */
static int with_places(chunk *c, const char **failure) {
    if (c->places_valid) return 1;
    pthread_once(&shared.places_once, load_places);
    if (!shared.places_loaded) {
        *failure = shared.places_error;
        return 0;
    }
    geonews_place_columns columns = {c->region, c->place, c->place_km};
    if (geonews_resolve_places(shared.handle, c->lat, c->lon, c->count, NULL, &columns) < 0) {
        *failure = "geonews: geonews_resolve_places refused its arguments";
        return 0;
    }
    c->places_valid = 1;
    return 1;
}

/* Writes each row's text from `text(handle, index)` into a VARCHAR vector, NULL where the index
 * is below 0 or the text empty. */
static void put_texts(duckdb_vector out, const int32_t *index, const char *(*text)(const geonews *, int32_t), size_t n) {
    duckdb_vector_ensure_validity_writable(out);
    uint64_t *valid = duckdb_vector_get_validity(out);
    for (size_t i = 0; i < n; i++) {
        const char *t = index[i] >= 0 ? text(shared.handle, index[i]) : NULL;
        if (!t || !*t) {
            duckdb_validity_set_row_invalid(valid, i);
            continue;
        }
        duckdb_vector_assign_string_element(out, i, t);
    }
}

/* Writes `index` into an ENUM vector of storage `width`, or NULL when below 0. */
static void put_enum(duckdb_vector out, duckdb_type width, const int16_t *index, const int8_t *values8, size_t n) {
    void *data = duckdb_vector_get_data(out);
    duckdb_vector_ensure_validity_writable(out);
    uint64_t *valid = duckdb_vector_get_validity(out);
    for (size_t i = 0; i < n; i++) {
        int v = index ? index[i] : values8[i];
        if (v < 0) {
            duckdb_validity_set_row_invalid(valid, i);
            v = 0;
        }
        if (width == DUCKDB_TYPE_UTINYINT) {
            ((uint8_t *)data)[i] = (uint8_t)v;
        } else {
            ((uint16_t *)data)[i] = (uint16_t)v;
        }
    }
}

/* Python's repr of a float, near enough: the fewest digits that read back as `value`. */
static void shortest(double value, char *out, size_t size) {
    if (isnan(value)) {
        snprintf(out, size, "nan");
        return;
    }
    if (isinf(value)) {
        snprintf(out, size, value > 0 ? "inf" : "-inf");
        return;
    }
    for (int precision = 1; precision <= 17; precision++) {
        snprintf(out, size, "%.*g", precision, value);
        if (strtod(out, NULL) == value) break;
    }
    if (!strpbrk(out, ".e")) strncat(out, ".0", size - strlen(out) - 1);
}

static void put_errors(duckdb_vector out, const chunk *c, size_t n) {
    duckdb_vector_ensure_validity_writable(out);
    uint64_t *valid = duckdb_vector_get_validity(out);
    for (size_t i = 0; i < n; i++) {
        if (c->error[i] == GEONEWS_OK) {
            duckdb_validity_set_row_invalid(valid, i);
            continue;
        }
        int latitude = c->error[i] == GEONEWS_ERROR_LATITUDE;
        double value = latitude ? c->lat[i] : c->lon[i];
        char number[40], text[128];
        shortest(value, number, sizeof number);
        if (isfinite(value)) {
            snprintf(text, sizeof text, "%s %s is outside %s", latitude ? "latitude" : "longitude", number,
                     latitude ? "-90\xe2\x80\xa6" "90" : "-180\xe2\x80\xa6" "180");
        } else {
            snprintf(text, sizeof text, "%s %s is not a finite number", latitude ? "latitude" : "longitude", number);
        }
        duckdb_vector_assign_string_element(out, i, text);
    }
}

/* The rows whose latitude or longitude is NULL: NULL in `out` (and its children's too). */
static void null_inputs(duckdb_data_chunk input, duckdb_vector out, size_t n) {
    uint64_t *lat_valid = duckdb_vector_get_validity(duckdb_data_chunk_get_vector(input, 0));
    uint64_t *lon_valid = duckdb_vector_get_validity(duckdb_data_chunk_get_vector(input, 1));
    if (!lat_valid && !lon_valid) return;
    duckdb_vector_ensure_validity_writable(out);
    uint64_t *valid = duckdb_vector_get_validity(out);
    for (size_t i = 0; i < n; i++) {
        if ((lat_valid && !duckdb_validity_row_is_valid(lat_valid, i)) ||
            (lon_valid && !duckdb_validity_row_is_valid(lon_valid, i))) {
            duckdb_validity_set_row_invalid(valid, i);
        }
    }
}

static void answer(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out) {
    enum answer what = (enum answer)(intptr_t)duckdb_scalar_function_get_extra_info(info);
    const char *failure = NULL;
    /* The zone, the region and the place need no more than the positions' zones and errors. */
    enum level need = what == ANSWER_TIME_ZONE || what == ANSWER_REGION || what == ANSWER_PLACE ? ZONE : ALL;
    chunk *c = resolved(input, need, &failure);
    if (!c) {
        duckdb_scalar_function_set_error(info, failure);
        return;
    }
    size_t n = c->count;
    switch (what) {
    case ANSWER_COUNTRY:
        put_enum(out, shared.code_width, c->country, NULL, n);
        break;
    case ANSWER_NEWS_COUNTRY:
        put_enum(out, shared.code_width, c->suggested, NULL, n);
        break;
    case ANSWER_TIME_ZONE:
        put_enum(out, shared.zone_width, c->zone, NULL, n);
        break;
    case ANSWER_REGION:
    case ANSWER_PLACE: {
        if (!with_places(c, &failure)) {
            duckdb_scalar_function_set_error(info, failure);
            return;
        }
        if (what == ANSWER_REGION) {
            put_texts(duckdb_struct_vector_get_child(out, 0), c->region, geonews_region_iso3166_2, n);
            put_texts(duckdb_struct_vector_get_child(out, 1), c->region, geonews_region_geonames, n);
            put_texts(duckdb_struct_vector_get_child(out, 2), c->region, geonews_region_name, n);
            /* A row with no region is NULL whole. */
            duckdb_vector_ensure_validity_writable(out);
            uint64_t *valid = duckdb_vector_get_validity(out);
            for (size_t i = 0; i < n; i++) {
                if (c->region[i] < 0) duckdb_validity_set_row_invalid(valid, i);
            }
        } else {
            put_texts(duckdb_struct_vector_get_child(out, 0), c->place, geonews_place_name, n);
            duckdb_vector ids = duckdb_struct_vector_get_child(out, 1), km = duckdb_struct_vector_get_child(out, 2);
            uint32_t *id = duckdb_vector_get_data(ids);
            double *d = duckdb_vector_get_data(km);
            duckdb_vector_ensure_validity_writable(ids);
            duckdb_vector_ensure_validity_writable(km);
            duckdb_vector_ensure_validity_writable(out);
            uint64_t *id_valid = duckdb_vector_get_validity(ids), *km_valid = duckdb_vector_get_validity(km);
            uint64_t *valid = duckdb_vector_get_validity(out);
            for (size_t i = 0; i < n; i++) {
                if (c->place[i] < 0) {
                    duckdb_validity_set_row_invalid(valid, i);
                    duckdb_validity_set_row_invalid(id_valid, i);
                    duckdb_validity_set_row_invalid(km_valid, i);
                    id[i] = 0;
                    d[i] = 0;
                    continue;
                }
                id[i] = (uint32_t)geonews_place_geonameid(shared.handle, c->place[i]);
                d[i] = c->place_km[i];
            }
        }
        break;
    }
    case ANSWER_RESOLVE: {
        put_enum(duckdb_struct_vector_get_child(out, 0), shared.code_width, c->country, NULL, n);
        put_enum(duckdb_struct_vector_get_child(out, 1), shared.code_width, c->suggested, NULL, n);
        put_enum(duckdb_struct_vector_get_child(out, 2), shared.reason_width, NULL, c->reason, n);
        duckdb_vector distance = duckdb_struct_vector_get_child(out, 3);
        double *km = duckdb_vector_get_data(distance);
        duckdb_vector_ensure_validity_writable(distance);
        uint64_t *km_valid = duckdb_vector_get_validity(distance);
        for (size_t i = 0; i < n; i++) {
            km[i] = c->distance_km[i];
            if (c->error[i] != GEONEWS_OK) duckdb_validity_set_row_invalid(km_valid, i);
        }
        put_enum(duckdb_struct_vector_get_child(out, 4), shared.zone_width, c->zone, NULL, n);
        put_errors(duckdb_struct_vector_get_child(out, 5), c, n);
        break;
    }
    }
    null_inputs(input, out, n);
}

/* An ENUM over `count` names from `name(handle, k)`, and its storage type. */
static duckdb_logical_type enum_of(int32_t count, const char *(*name)(const geonews *, int32_t), duckdb_type *width) {
    const char **names = malloc((size_t)(count > 0 ? count : 1) * sizeof *names);
    if (!names) return NULL;
    for (int32_t k = 0; k < count; k++) names[k] = name(shared.handle, k);
    duckdb_logical_type type = duckdb_create_enum_type(names, (idx_t)count);
    free(names);
    *width = duckdb_enum_internal_type(type);
    return type;
}

static const char *reason_of(const geonews *handle, int32_t reason) {
    (void)handle;
    return geonews_reason_name(reason);
}

/* The folder of this extension's file, for the data the wheel puts beside it. */
static int own_folder(char *out, size_t size) {
    Dl_info info;
    if (!dladdr((void *)&own_folder, &info) || !info.dli_fname) return 0;
    const char *slash = strrchr(info.dli_fname, '/');
    if (!slash) return 0;
    size_t length = (size_t)(slash - info.dli_fname);
    if (length + 1 > size) return 0;
    memcpy(out, info.dli_fname, length);
    out[length] = 0;
    return 1;
}

/*
 * Opens the resolver once for the process: the data folder is $GEONEWS_DATA, else the `_data`
 * folder beside the extension's (the Python wheel's layout), else where `geonews` looks; the
 * indexes are read from $GEONEWS_INDEX_DIR when it is set, else from the cache folder.
 */
static int open_shared(char *error, size_t size) {
    if (shared.handle) return 1;
    const char *data = getenv("GEONEWS_DATA");
    char beside[PATH_MAX];
    if (!data || !*data) {
        data = NULL;
        char folder[PATH_MAX];
        if (own_folder(folder, sizeof folder)) {
            char probe[PATH_MAX];
            int a = snprintf(beside, sizeof beside, "%s/../_data", folder);
            int b = snprintf(probe, sizeof probe, "%s/../_data/countries.json", folder);
            if (a > 0 && (size_t)a < sizeof beside && b > 0 && (size_t)b < sizeof probe && access(probe, R_OK) == 0) {
                data = beside;
            }
        }
    }
    const char *indexes = getenv("GEONEWS_INDEX_DIR");
    geonews *handle = indexes && *indexes ? geonews_open_at(data, indexes, error, size) : geonews_open(data, error, size);
    if (!handle) return 0;
    shared.handle = handle;
    shared.code_type = enum_of(geonews_code_count(handle), geonews_code, &shared.code_width);
    shared.zone_type = enum_of(geonews_zone_name_count(handle), geonews_zone_name, &shared.zone_width);
    shared.reason_type = enum_of(4, reason_of, &shared.reason_width);
    if (!shared.code_type || !shared.zone_type || !shared.reason_type) {
        snprintf(error, size, "geonews: out of memory for the catalogue's names");
        return 0;
    }
    return 1;
}

static int add_function(duckdb_connection connection, const char *name, duckdb_logical_type result, enum answer what) {
    duckdb_scalar_function f = duckdb_create_scalar_function();
    duckdb_scalar_function_set_name(f, name);
    duckdb_logical_type degrees = duckdb_create_logical_type(DUCKDB_TYPE_DOUBLE);
    duckdb_scalar_function_add_parameter(f, degrees);
    duckdb_scalar_function_add_parameter(f, degrees);
    duckdb_destroy_logical_type(&degrees);
    duckdb_scalar_function_set_return_type(f, result);
    duckdb_scalar_function_set_function(f, answer);
    duckdb_scalar_function_set_extra_info(f, (void *)(intptr_t)what, NULL);
    int ok = duckdb_register_scalar_function(connection, f) == DuckDBSuccess;
    duckdb_destroy_scalar_function(&f);
    return ok;
}

/* The entry point DuckDB calls at LOAD (geonews_init_c_api), which gets the function table first. */
DUCKDB_EXTENSION_ENTRYPOINT_CUSTOM(duckdb_extension_info info, struct duckdb_extension_access *access) {
    char error[1024] = "";
    pthread_mutex_lock(&shared.lock);
    int opened = open_shared(error, sizeof error);
    pthread_mutex_unlock(&shared.lock);
    if (!opened) {
        access->set_error(info, error);
        return false;
    }
    duckdb_database *db = access->get_database(info);
    duckdb_connection connection;
    if (!db || duckdb_connect(*db, &connection) == DuckDBError) {
        access->set_error(info, "geonews: cannot open a connection to register the functions");
        return false;
    }
    duckdb_logical_type km = duckdb_create_logical_type(DUCKDB_TYPE_DOUBLE);
    duckdb_logical_type text = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    duckdb_logical_type members[] = {shared.code_type, shared.code_type, shared.reason_type, km, shared.zone_type, text};
    const char *names[] = {"country_iso2", "suggested_iso2", "suggestion_reason", "distance_km", "time_zone", "error"};
    duckdb_logical_type row = duckdb_create_struct_type(members, names, 6);
    duckdb_logical_type region_members[] = {text, text, text};
    const char *region_names[] = {"iso3166_2", "geonames", "name"};
    duckdb_logical_type region = duckdb_create_struct_type(region_members, region_names, 3);
    duckdb_logical_type id = duckdb_create_logical_type(DUCKDB_TYPE_UINTEGER);
    duckdb_logical_type place_members[] = {text, id, km};
    const char *place_names[] = {"name", "geonameid", "distance_km"};
    duckdb_logical_type place = duckdb_create_struct_type(place_members, place_names, 3);
    int ok = add_function(connection, "geonews_country", shared.code_type, ANSWER_COUNTRY) &&
             add_function(connection, "geonews_news_country", shared.code_type, ANSWER_NEWS_COUNTRY) &&
             add_function(connection, "geonews_time_zone", shared.zone_type, ANSWER_TIME_ZONE) &&
             add_function(connection, "geonews_resolve", row, ANSWER_RESOLVE) &&
             add_function(connection, "geonews_region", region, ANSWER_REGION) &&
             add_function(connection, "geonews_place", place, ANSWER_PLACE);
    duckdb_destroy_logical_type(&row);
    duckdb_destroy_logical_type(&region);
    duckdb_destroy_logical_type(&place);
    duckdb_destroy_logical_type(&id);
    duckdb_destroy_logical_type(&km);
    duckdb_destroy_logical_type(&text);
    duckdb_disconnect(&connection);
    if (!ok) {
        access->set_error(info, "geonews: DuckDB refused to register a function");
        return false;
    }
    return true;
}
