#!/usr/bin/env python3
"""Prints the CDL of accounting.nc: a netCDF-4 file of ~300 KB (several variables, chunked,
deflated and contiguous) for the request-accounting test. Deterministic; standard library only.
The CDL itself (~1 MB of numbers) is not committed: generate.sh pipes it to ncgen."""

T, Y, X = 24, 40, 50


def noise(seed):
    # a small LCG: incompressible-ish floats, reproducible everywhere
    s = seed
    while True:
        s = (s * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        yield (s >> 40) / float(1 << 24)


def main():
    out = []
    w = out.append
    w("netcdf accounting {")
    w("dimensions:\n\ttime = UNLIMITED ;\n\ty = %d ;\n\tx = %d ;" % (Y, X))
    w("variables:")
    w('\tdouble time(time) ;\n\t\ttime:units = "hours since 2000-01-01" ;')
    w('\tfloat y(y) ;\n\t\ty:units = "km" ;')
    w('\tfloat x(x) ;\n\t\tx:units = "km" ;')
    w('\tfloat temp(time, y, x) ;\n\t\ttemp:_ChunkSizes = 1, %d, %d ;\n\t\ttemp:units = "K" ;' % (Y, X))
    w('\tfloat precip(time, y, x) ;\n\t\tprecip:_ChunkSizes = 4, %d, %d ;\n\t\tprecip:_DeflateLevel = 1 ;'
      '\n\t\tprecip:units = "mm" ;' % (Y, X))
    w('\tshort mask(y, x) ;\n\t\tmask:_Storage = "contiguous" ;')
    w('\tint station_id ;')
    w(':title = "request accounting test file" ;')
    w("data:")
    w(" time = " + ", ".join(str(t) for t in range(T)) + " ;")
    w(" y = " + ", ".join(str(i * 2.5) for i in range(Y)) + " ;")
    w(" x = " + ", ".join(str(i * 2.5) for i in range(X)) + " ;")
    n = noise(1)
    w(" temp = " + ", ".join("%.4f" % (250 + 50 * next(n)) for _ in range(T * Y * X)) + " ;")
    w(" precip = " + ", ".join("%.1f" % ((t * 7 + i) % 50 / 10.0) for t in range(T) for i in range(Y * X)) + " ;")
    w(" mask = " + ", ".join(str((i // X + i % X) % 3) for i in range(Y * X)) + " ;")
    w(" station_id = 4711 ;")
    w("}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
