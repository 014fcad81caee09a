// hwfit microbenchmark — the one WGSL module every GPU runs (native wgpu and the browser's WebGPU).
//
// `matmul`: C = A·B for n × n row-major matrices (n a multiple of 64). A 16 × 16 workgroup computes a
// 64 × 64 tile of C, each invocation a 4 × 4 register block, stepping through K in slices of 16 staged
// in workgroup memory. 2·n³ FLOPs per dispatch.
// `copy`: dst[i] = src[i] over vec4<f32>; bytes read + written per dispatch = 2 × buffer size.
//
// `scalar` is the matmul element type. The runner uses this file as it is for f32; for f16 it puts
// `enable f16;` in front and sets the alias to f16 (see hwfit-microbench's `shader_source`).

alias scalar = f32;

struct Dims {
    n: u32,
    groups_x: u32,
    pad0: u32,
    pad1: u32,
}

const TILE: u32 = 64u;
const TK: u32 = 16u;

@group(0) @binding(0) var<storage, read> mat_a: array<scalar>;
@group(0) @binding(1) var<storage, read> mat_b: array<scalar>;
@group(0) @binding(2) var<storage, read_write> mat_c: array<scalar>;
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> tile_a: array<scalar, 1024>; // 64 rows × 16 k
var<workgroup> tile_b: array<scalar, 1024>; // 16 k × 64 columns

@compute @workgroup_size(16, 16)
fn matmul(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n = dims.n;
    let row0 = wid.y * TILE;
    let col0 = wid.x * TILE;
    let flat = lid.y * 16u + lid.x;
    var acc: array<array<scalar, 4>, 4>;
    for (var k0 = 0u; k0 < n; k0 += TK) {
        for (var i = 0u; i < 4u; i++) {
            let idx = flat + i * 256u;
            tile_a[idx] = mat_a[(row0 + idx / TK) * n + k0 + idx % TK];
            tile_b[idx] = mat_b[(k0 + idx / TILE) * n + col0 + idx % TILE];
        }
        workgroupBarrier();
        for (var kk = 0u; kk < TK; kk++) {
            var bv: array<scalar, 4>;
            for (var j = 0u; j < 4u; j++) {
                bv[j] = tile_b[kk * TILE + lid.x + 16u * j];
            }
            for (var i = 0u; i < 4u; i++) {
                let av = tile_a[(lid.y + 16u * i) * TK + kk];
                for (var j = 0u; j < 4u; j++) {
                    acc[i][j] = fma(av, bv[j], acc[i][j]);
                }
            }
        }
        workgroupBarrier();
    }
    for (var i = 0u; i < 4u; i++) {
        for (var j = 0u; j < 4u; j++) {
            mat_c[(row0 + lid.y + 16u * i) * n + col0 + lid.x + 16u * j] = acc[i][j];
        }
    }
}

@group(0) @binding(4) var<storage, read> copy_src: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> copy_dst: array<vec4<f32>>;

@compute @workgroup_size(256)
fn copy(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.y * dims.groups_x * 256u + gid.x;
    if (i < arrayLength(&copy_dst)) {
        copy_dst[i] = copy_src[i];
    }
}
