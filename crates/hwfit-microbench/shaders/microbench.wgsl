// hwfit microbenchmark — the one WGSL module every GPU runs (native wgpu and the browser's WebGPU).
//
// `matmul`: C = A·B for n × n row-major matrices (n a multiple of 128), read and written as vec4s.
// A 16 × 16 workgroup computes a 128 × 128 tile of C: each invocation an 8 × 8 register block (rows
// 4·y … 4·y+3 and 64+4·y …, columns likewise, so neighbouring invocations read neighbouring vec4s of
// workgroup memory), stepping through K in slices of 16 staged in workgroup memory (A transposed to
// k-major, so every step reads 2 vec4s of A and 2 of B for 64 multiply-adds). 2·n³ FLOPs per dispatch.
// Workgroup memory: 2 × 16 × 128 scalars (16 KiB in f32: WebGPU's guaranteed limit).
// `copy`: dst[i] = src[i] over vec4<f32>; bytes read + written per dispatch = 2 × buffer size.
//
// `scalar` is the matmul element type. The runner uses this file as it is for f32; for f16 it puts
// `enable f16;` in front and sets the alias to f16 (see hwfit-microbench's `shader_source`): the
// products, sums and storage are then all f16.

alias scalar = f32;

struct Dims {
    n: u32,
    groups_x: u32,
    pad0: u32,
    pad1: u32,
}

const TILE: u32 = 128u;
const TK: u32 = 16u;
// vec4s across a tile row.
const TILE4: u32 = 32u;

@group(0) @binding(0) var<storage, read> mat_a: array<vec4<scalar>>;
@group(0) @binding(1) var<storage, read> mat_b: array<vec4<scalar>>;
@group(0) @binding(2) var<storage, read_write> mat_c: array<vec4<scalar>>;
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> tile_a: array<vec4<scalar>, 512>; // 16 k × 128 rows (k-major)
var<workgroup> tile_b: array<vec4<scalar>, 512>; // 16 k × 128 columns

@compute @workgroup_size(16, 16)
fn matmul(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n4 = dims.n / 4u;
    let row0 = wid.y * TILE;
    let col0 = wid.x * TILE;
    let flat = lid.y * 16u + lid.x;
    var acc: array<vec4<scalar>, 16>; // rows 0..7 × the two column groups
    for (var k0 = 0u; k0 < dims.n; k0 += TK) {
        // 512 vec4s of A (128 rows × 4 vec4s of k) and of B (16 k × 32 vec4s of columns): 2 each.
        for (var i = 0u; i < 2u; i++) {
            let idx = flat + i * 256u;
            let r = idx / 4u;
            let kq = (idx % 4u) * 4u;
            let va = mat_a[(row0 + r) * n4 + (k0 + kq) / 4u];
            tile_a[(kq + 0u) * TILE4 + r / 4u][r % 4u] = va.x;
            tile_a[(kq + 1u) * TILE4 + r / 4u][r % 4u] = va.y;
            tile_a[(kq + 2u) * TILE4 + r / 4u][r % 4u] = va.z;
            tile_a[(kq + 3u) * TILE4 + r / 4u][r % 4u] = va.w;
            let kb = idx / TILE4;
            let cb = idx % TILE4;
            tile_b[idx] = mat_b[(k0 + kb) * n4 + col0 / 4u + cb];
        }
        workgroupBarrier();
        for (var kk = 0u; kk < TK; kk++) {
            let a0 = tile_a[kk * TILE4 + lid.y];
            let a1 = tile_a[kk * TILE4 + 16u + lid.y];
            let b0 = tile_b[kk * TILE4 + lid.x];
            let b1 = tile_b[kk * TILE4 + 16u + lid.x];
            var a = array<scalar, 8>(a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w);
            for (var i = 0u; i < 8u; i++) {
                let ai = vec4<scalar>(a[i]);
                acc[2u * i] = fma(ai, b0, acc[2u * i]);
                acc[2u * i + 1u] = fma(ai, b1, acc[2u * i + 1u]);
            }
        }
        workgroupBarrier();
    }
    for (var i = 0u; i < 8u; i++) {
        let row = row0 + select(64u + 4u * lid.y + i - 4u, 4u * lid.y + i, i < 4u);
        mat_c[row * n4 + col0 / 4u + lid.x] = acc[2u * i];
        mat_c[row * n4 + col0 / 4u + 16u + lid.x] = acc[2u * i + 1u];
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
