use alloc::string::ToString;

use super::*;

fn id(name: &str) -> String {
    DeviceCatalog::builtin()
        .resolve(name)
        .map_or_else(|e| e.to_string(), |d| d.id.clone())
}

#[test]
fn catalog_has_fifty_devices_with_sources() {
    let catalog = DeviceCatalog::builtin();
    assert!(catalog.devices().len() >= 50, "{}", catalog.devices().len());
    for d in catalog.devices() {
        assert!(!d.source.is_empty() && d.source_url.starts_with("https://"), "{}", d.id);
        assert!(
            d.memory_gb > 0.0 && d.memory_bandwidth_gbs > 0.0 && d.dense_tflops.fp32 > 0.0,
            "{}",
            d.id
        );
        // tensor rates are at least the fp32 rate
        for v in [
            d.dense_tflops.fp16,
            d.dense_tflops.bf16,
            d.dense_tflops.fp8,
            d.dense_tflops.int8,
        ]
        .into_iter()
        .flatten()
        {
            assert!(v >= d.dense_tflops.fp32 * 0.99, "{}", d.id);
        }
    }
    let mut ids: Vec<&str> = catalog.devices().iter().map(|d| d.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), catalog.devices().len(), "duplicate ids");
}

#[test]
fn names_people_and_benchmark_tables_use() {
    assert_eq!(id("RTX 4090"), "nvidia-rtx-4090");
    assert_eq!(id("NVIDIA GeForce RTX 4090"), "nvidia-rtx-4090");
    assert_eq!(id("4090 24GB"), "nvidia-rtx-4090");
    assert_eq!(id("A100 SXM 80GB"), "nvidia-a100-sxm-80gb");
    assert_eq!(id("M2 Ultra 76-Core GPU 192GB"), "apple-m2-ultra-76c");
    assert_eq!(id("Tesla T4"), "nvidia-t4");
    assert_eq!(id("NVIDIA H100-SXM-80GB"), "nvidia-h100-sxm");
    assert_eq!(id("nvidia h100 pcie"), "nvidia-h100-pcie");
    assert_eq!(id("webgpu"), "webgpu-discrete");
    assert_eq!(id("cpu"), "cpu");
    assert_eq!(id("AMD Instinct MI300X"), "amd-mi300x");
}

#[test]
fn ambiguous_and_unknown_names_are_errors_with_candidates() {
    let ambiguous = id("A100");
    assert!(ambiguous.contains("ambiguous device 'A100'"), "{ambiguous}");
    assert!(ambiguous.contains("NVIDIA A100 SXM4 40GB"), "{ambiguous}");
    let unknown = id("RTX 9090");
    assert!(unknown.starts_with("unknown device 'RTX 9090'"), "{unknown}");
    assert!(id("").starts_with("unknown device"));
    assert!(id("4090 48GB").starts_with("unknown device"), "memory must match");
}

#[test]
fn precision_picks_the_right_peak() {
    let h100 = DeviceCatalog::builtin().resolve("H100 SXM").unwrap().clone();
    assert_eq!(
        h100.dense_tflops.for_precision(Precision::Fp8),
        (1979.0, ComputeRate::Fp8)
    );
    assert_eq!(h100.dense_tflops.for_precision(Precision::Q4KM).1, ComputeRate::Fp16);
    assert_eq!(h100.dense_tflops.for_precision(Precision::Int4).1, ComputeRate::Fp16);
    let rtx = DeviceCatalog::builtin().resolve("RTX 4090").unwrap().clone();
    assert_eq!(
        rtx.dense_tflops.for_precision(Precision::F16),
        (330.4, ComputeRate::Fp16Acc16)
    );
    let cpu = DeviceCatalog::builtin().resolve("cpu").unwrap().clone();
    assert_eq!(cpu.dense_tflops.for_precision(Precision::Fp16).1, ComputeRate::Fp32);
}

#[test]
fn hardware_types_have_reference_devices() {
    let catalog = DeviceCatalog::builtin();
    for hw in [
        HardwareType::Cuda,
        HardwareType::Rocm,
        HardwareType::Mps,
        HardwareType::Cpu,
        HardwareType::Webgpu,
        HardwareType::Wasm,
        HardwareType::Openvino,
    ] {
        assert_eq!(catalog.reference(hw).unwrap().hardware_type, hw);
    }
    assert!(catalog
        .reference(HardwareType::Qnn)
        .unwrap_err()
        .to_string()
        .contains("no reference device for qnn"));
}

#[test]
fn probed_names_match_catalog_devices_or_nothing() {
    let c = DeviceCatalog::builtin();
    let id = |name: &str, hw: HardwareType| c.match_detected(name, hw).map(|d| d.id.as_str());
    assert_eq!(id("NVIDIA H100 80GB HBM3", HardwareType::Cuda), Some("nvidia-h100-sxm"));
    assert_eq!(
        id("NVIDIA GeForce RTX 4090", HardwareType::Cuda),
        Some("nvidia-rtx-4090")
    );
    assert_eq!(id("AMD Instinct MI300X", HardwareType::Rocm), Some("amd-mi300x"));
    assert_eq!(id("llvmpipe (LLVM 15.0.6, 256 bits)", HardwareType::Cpu), None);
    assert_eq!(id("cpu", HardwareType::Cpu), None);
    assert_eq!(id("NVIDIA H100 80GB HBM3", HardwareType::Rocm), None);
}

mod database {
    use super::*;
    use crate::device::database;

    /// Every derived tensor rate of a database row that duplicates a curated device matches the
    /// curated (published) figure within 5 %.
    #[test]
    fn derived_tensor_rates_match_the_curated_figures() {
        let curated = DeviceCatalog::builtin();
        let mut checked = 0;
        let mut failures = Vec::new();
        for entry in database::parse(DATABASE_CSV).unwrap() {
            let Some(id) = entry.curated_id.filter(|_| entry.matrix_rates) else {
                continue;
            };
            let want = curated.by_id(&id).unwrap().dense_tflops;
            let got = entry.device.dense_tflops;
            let pairs = [
                ("fp16", want.fp16, got.fp16),
                ("fp16_acc16", want.fp16_acc16, got.fp16_acc16),
                ("bf16", want.bf16, got.bf16),
                ("fp8", want.fp8, got.fp8),
                ("int8", want.int8, got.int8),
            ];
            for (what, want, got) in pairs {
                let (Some(want), Some(got)) = (want, got) else { continue };
                checked += 1;
                if (got / want - 1.0).abs() > 0.05 {
                    failures.push(alloc::format!(
                        "{id} ({}) {what}: derived {got:.1}, published {want:.1}",
                        entry.device.name
                    ));
                }
            }
        }
        assert!(checked >= 100, "{checked}");
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

/// Real spellings from nvidia-smi, rocm-smi, system_profiler, torch, vulkaninfo, WebGL and
/// benchmark tables (`tests/data/device_spellings.csv`, each with its source): none resolves to
/// another device, and at least 95 % to the device they name (229 of 241). Where the name alone cannot tell (`A100 80GB`: PCIe or
/// SXM4?) or the device is in no catalog, the right answer is an error.
mod spellings {
    use super::*;
    use crate::csv::Table;

    const SPELLINGS: &str = include_str!("../../../../tests/data/device_spellings.csv");

    /// Expected labels of the set that name a database device differently.
    const LABELS: &[(&str, &str)] = &[
        ("NVIDIA B200 (180 GB)", "nvidia-b200"),
        ("NVIDIA GeForce RTX 4090 Laptop GPU", "NVIDIA GeForce RTX 4090 Mobile"),
        ("NVIDIA GeForce RTX 4070 Laptop GPU", "NVIDIA GeForce RTX 4070 Mobile"),
        ("NVIDIA GeForce RTX 4060 Laptop GPU", "NVIDIA GeForce RTX 4060 Mobile"),
        ("NVIDIA GeForce RTX 4050 Laptop GPU", "NVIDIA GeForce RTX 4050 Mobile"),
        ("NVIDIA GeForce RTX 3070 Laptop GPU", "NVIDIA GeForce RTX 3070 Mobile"),
        ("NVIDIA GeForce RTX 3060 Laptop GPU", "NVIDIA GeForce RTX 3060 Mobile"),
        (
            "NVIDIA GeForce RTX 3050 Ti Laptop GPU",
            "NVIDIA GeForce RTX 3050 Ti Mobile",
        ),
        ("NVIDIA GeForce RTX 5090 Laptop GPU", "NVIDIA GeForce RTX 5090 Mobile"),
        ("NVIDIA GeForce RTX 5070 Laptop GPU", "NVIDIA GeForce RTX 5070 Mobile"),
        ("NVIDIA GeForce RTX 5060 Laptop GPU", "NVIDIA GeForce RTX 5060 Mobile"),
        ("NVIDIA GeForce RTX 5050 Laptop GPU", "NVIDIA GeForce RTX 5050 Mobile"),
        ("NVIDIA GeForce RTX 3080 10 GB", "NVIDIA GeForce RTX 3080"),
        ("NVIDIA A40", "NVIDIA A40 PCIe"),
        ("NVIDIA A10", "NVIDIA A10 PCIe"),
        ("NVIDIA H100 NVL", "NVIDIA H100 NVL 94 GB"),
        ("AMD Instinct MI300X", "amd-mi300x"),
        ("AMD Instinct MI210", "amd-mi210"),
        ("AMD Instinct MI250X", "amd-mi250x"),
        ("AMD Instinct MI250", "amd-mi250"),
        ("AMD Instinct MI100", "AMD Radeon Instinct MI100"),
        ("NVIDIA GH200 144GB HBM3e", "nvidia-gh200"),
        (
            "NVIDIA GH200 Grace Hopper Superchip (96 GB HBM3)",
            "NVIDIA GH200 Grace Hopper (96GB HBM3)",
        ),
        ("NVIDIA GB10 (DGX Spark)", "nvidia-dgx-spark"),
        ("NVIDIA Quadro T2000 (Mobile)", "NVIDIA Quadro T2000 Mobile"),
        ("Intel Arc A770 16 GB", "Intel Arc A770"),
        ("AMD Ryzen AI Max+ PRO 395 (Radeon 8060S)", "amd-ryzen-ai-max-395"),
        (
            "Qualcomm Snapdragon X Elite X1E-78-100",
            "Snapdragon X Elite X1E-78-100 (Adreno X1-85)",
        ),
        ("Intel Core i9-13900K", "intel-core-i9-13900k"),
        ("AMD EPYC 7763", "amd-epyc-7763"),
        ("NVIDIA Tesla M40 12 GB", "NVIDIA Tesla M40"),
        ("ATI Mobility Radeon HD 5450", "AMD Mobility Radeon HD 5450"),
        ("NVIDIA T10 16 GB (Turing)", "NVIDIA Tesla T10 16 GB"),
        ("Intel Arc 130V (Lunar Lake iGPU)", "Intel Arc 130V Mobile"),
        (
            "NVIDIA GeForce RTX 3050 Laptop GPU (6 GB)",
            "NVIDIA GeForce RTX 3050 Mobile Refresh 6 GB",
        ),
        ("NVIDIA RTX PRO 6000D (Blackwell, China market)", "NVIDIA RTX 6000D"),
        ("Intel Arc 140T GPU", "Intel Arc 140T Mobile"),
        ("Intel Arc 140V GPU", "Intel Arc 140V Mobile"),
        ("NVIDIA B200 (HGX/DGX, 180 GB)", "NVIDIA B200 SXM 180GB"),
        (
            "Intel Xeon Platinum 8480+",
            "Intel Xeon Platinum 8480+ (Sapphire Rapids)",
        ),
        ("NVIDIA Tesla V100 32 GB (PG500-216 board)", "NVIDIA Tesla PG500-216"),
        (
            "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
            "NVIDIA RTX PRO 6000 Blackwell Max-Q",
        ),
        (
            "Qualcomm Snapdragon X Elite X1E-80-100",
            "Snapdragon X Elite X1E-80-100 (Adreno X1-85)",
        ),
        (
            "NVIDIA Jetson AGX Thor Developer Kit (T5000)",
            "NVIDIA Jetson AGX Thor (T5000)",
        ),
        ("AMD Radeon Pro 570 (iMac)", "AMD Radeon Pro 570"),
        ("AMD Instinct MI308X", "AMD Radeon Instinct MI308X"),
        ("AMD Instinct MI350X", "AMD Radeon Instinct MI350X"),
        (
            "AMD Radeon 8060S (Ryzen AI Max+ 395 iGPU)",
            "AMD Ryzen AI Max+ 395 (Radeon 8060S)",
        ),
        ("NVIDIA RTX A3000 12GB Laptop GPU", "NVIDIA RTX A3000 Mobile 12 GB"),
    ];

    fn expected<'a>(catalog: &'a DeviceCatalog, label: &str) -> Option<&'a Device> {
        let label = LABELS.iter().find(|(l, _)| *l == label).map_or(label, |(_, to)| to);
        let key = crate::text::normalize_key(label);
        catalog.devices().iter().find(|d| {
            d.id == label
                || crate::text::normalize_key(&d.name) == key
                || d.aliases.iter().any(|a| crate::text::normalize_key(a) == key)
        })
    }

    #[test]
    fn the_database_holds_two_thousand_devices_with_sources() {
        let catalog = DeviceCatalog::builtin().with_database(DATABASE_CSV).unwrap();
        assert!(catalog.devices().len() >= 2000, "{}", catalog.devices().len());
        for d in catalog.devices() {
            assert!(!d.source.is_empty() && d.source_url.starts_with("http"), "{}", d.id);
            assert!(
                d.memory_gb > 0.0 && d.memory_bandwidth_gbs > 0.0 && d.dense_tflops.fp32 > 0.0,
                "{}",
                d.id
            );
        }
        let mut ids: Vec<&str> = catalog.devices().iter().map(|d| d.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), catalog.devices().len(), "duplicate ids");
    }

    #[test]
    fn a_socs_cpu_answers_to_cpu_and_its_gpu_to_the_chip_name() {
        let catalog = DeviceCatalog::builtin().with_database(DATABASE_CSV).unwrap();
        let id = |name: &str| catalog.resolve(name).map(|d| d.id.clone());
        let cpu = catalog.resolve("Apple M2 Max CPU").unwrap();
        assert_eq!(cpu.hardware_type, crate::HardwareType::Cpu);
        assert_eq!(cpu.cpu_cores, Some(12));
        // 8 P-cores × 32 FP32 FLOPs/cycle × 3.504 GHz + 4 E-cores × 16 × 2.424 GHz.
        assert!(
            (cpu.dense_tflops.fp32 - 1.052).abs() < 0.001,
            "{}",
            cpu.dense_tflops.fp32
        );
        assert_eq!(id("Apple M4 CPU (10-core)").unwrap(), "apple-m4-cpu-10-core");
        assert_eq!(id("apple m4 cpu 10 cores").unwrap(), "apple-m4-cpu-10-core");
        // The M4's three CPU variants compute differently: say which.
        let err = id("Apple M4 CPU").unwrap_err().to_string();
        assert!(err.contains("Apple M4 CPU (9-core)") && !err.contains("GPU"), "{err}");
        // Without `CPU`, the chip's name is its GPU, as before its CPU was known …
        let err = id("Apple M2 Max").unwrap_err().to_string();
        assert!(err.contains("38-core GPU") && !err.contains("CPU"), "{err}");
        // … and so is a Mac's chip described by its CPU cores.
        assert!(id("Apple M1 Pro (10-core CPU)").is_err_and(|e| !e.to_string().contains("CPU (")));
        // A CPU brand string still names its CPU, its core count checked.
        assert_eq!(id("AMD Ryzen 9 7950X 16-Core Processor").unwrap(), "amd-ryzen-9-7950x");
        assert!(id("AMD Ryzen 9 7950X 8-Core Processor").is_err());
        // A phone SoC's CPU (its GPU row has no compute figures to predict from).
        let dimensity = catalog.resolve("Dimensity 9300 CPU").unwrap();
        assert_eq!(
            (dimensity.hardware_type, dimensity.cpu_cores),
            (crate::HardwareType::Cpu, Some(8))
        );
        // A model number's last part before `CPU` is no core count (`X1P-42-100 CPU`).
        assert_eq!(
            id("X1P-42-100 CPU").unwrap(),
            "qualcomm-snapdragon-x-plus-x1p-42-100-cpu"
        );
        assert_eq!(
            id("Snapdragon X Elite X1E-80-100 CPU").unwrap(),
            "qualcomm-snapdragon-x-elite-x1e-80-100-cpu"
        );
        assert_eq!(id("x1e-80-100").unwrap(), "snapdragon-x-elite-x1e-80-100-adreno-x1-85");
    }

    #[test]
    fn the_launch_listing_wins_over_later_variants_only() {
        let catalog = DeviceCatalog::builtin().with_database(DATABASE_CSV).unwrap();
        let id = |name: &str| catalog.resolve(name).map(|d| d.id.clone());
        // The 20 GB card came later; the GA102 3070 Ti too.
        assert_eq!(id("rtx 3080 ti").unwrap(), "nvidia-geforce-rtx-3080-ti");
        assert_eq!(id("RTX 3080 Ti 20GB").unwrap(), "nvidia-geforce-rtx-3080-ti-20-gb");
        assert_eq!(id("3070ti").unwrap(), "nvidia-geforce-rtx-3070-ti");
        // The RX 9060 XT's 8 and 16 GB boards compute and read memory alike: the smaller one answers
        // (a fit is promised only where both keep it).
        assert_eq!(id("AMD Radeon RX 9060 XT").unwrap(), "amd-radeon-rx-9060-xt-8-gb");
        assert_eq!(catalog.memory_options("AMD Radeon RX 9060 XT"), [8.0, 16.0]);
        // How each name was read.
        let read = catalog.resolved_from("AMD Radeon RX 9060 XT").unwrap();
        assert_eq!(read.rule, "the least memory of one product's sizes");
        assert_eq!(read.alternatives, ["AMD Radeon RX 9060 XT 16 GB"]);
        assert!(read.tokens.contains(&String::from("9060")), "{read:?}");
        let read = catalog.resolved_from("W7900").unwrap();
        assert_eq!(read.rule, "the match its variants extend");
        let read = catalog.resolved_from("Intel(R) Graphics (BMG G21)");
        assert!(read.is_none(), "ambiguous names resolve to nothing: {read:?}");
        let read = catalog.resolved_from("nvidia-h100-sxm").unwrap();
        assert_eq!(read.rule, "exact name, id or alias");
        assert!(read.tokens.is_empty());
        let read = catalog.resolved_from("RTX 4090 24GB").unwrap();
        assert_eq!(read.memory_gb, Some(24.0), "{read:?}");
        assert!(catalog.memory_options("AMD Radeon RX 9060 XT 16 GB").is_empty());
        // One resolution gives all three, alike; an unresolvable name is `resolve`'s error.
        for name in [
            "AMD Radeon RX 9060 XT",
            "W7900",
            "nvidia-h100-sxm",
            "RTX 4090 24GB",
            "3070ti",
        ] {
            let named = catalog.named(name).unwrap();
            assert_eq!(named.device.id, catalog.resolve(name).unwrap().id, "{name}");
            assert_eq!(named.resolved_from, catalog.resolved_from(name), "{name}");
            assert_eq!(named.memory_options, catalog.memory_options(name), "{name}");
        }
        for name in ["Intel(R) Graphics (BMG G21)", "no such device 9000"] {
            assert_eq!(
                catalog.named(name).map(|n| n.device.id.clone()),
                catalog.resolve(name).map(|d| d.id.clone()),
                "{name}"
            );
        }
        // The database lists the A770 8 GB at a lower boost clock (2100 vs 2400 MHz): it stays ambiguous.
        assert!(matches!(
            catalog.resolve("Intel(R) Arc(TM) A770 Graphics"),
            Err(CoreError::AmbiguousDevice { .. })
        ));
        // Variants that differ in bandwidth stay ambiguous (the 8 GB RTX 3060 has a 128-bit bus).
        assert!(matches!(
            catalog.resolve("RTX 3060"),
            Err(CoreError::AmbiguousDevice { .. })
        ));
        // Names as drivers print them.
        assert_eq!(
            id("AMD Radeon RX 580 Series (RADV POLARIS10)").unwrap(),
            id("rx 580").unwrap()
        );
        assert_eq!(
            id("Intel(R) Arc(tm) A310 Graphics (DG2)").unwrap(),
            id("arc a310").unwrap()
        );
        assert_eq!(
            id("AMD Radeon AI PRO R9700, gfx1201 (0x1201)").unwrap(),
            id("Radeon AI PRO R9700").unwrap()
        );
        assert!(id("W7900").unwrap().contains("w7900"));
        assert!(matches!(
            catalog.resolve("Intel(R) Graphics (BMG G21)"),
            Err(CoreError::AmbiguousDevice { candidates, .. }) if candidates.contains("B580") && candidates.contains("B570")
        ));
        assert_eq!(id("NVIDIA H200").unwrap(), "nvidia-h200-sxm");
        // A SoC is named without its GPU.
        assert_eq!(id("x1e-78-100").unwrap(), "snapdragon-x-elite-x1e-78-100-adreno-x1-85");
    }

    /// The bundled catalog (its rows parsed one by one, its name table written by the build script)
    /// answers as the database read at run time: the same devices, and every real spelling, every
    /// device's names and their lower-case, spaceless forms resolve alike (errors worded alike).
    #[cfg(feature = "device-db")]
    #[test]
    fn the_compiled_in_index_answers_as_the_database_read_at_run_time() {
        let loaded = DeviceCatalog::builtin().with_database(DATABASE_CSV).unwrap();
        let table = Table::parse(SPELLINGS).unwrap();
        let mut names: Vec<String> = table
            .rows
            .iter()
            .map(|row| table.get(row, "spelling").unwrap().to_string())
            .collect();
        for d in loaded.devices() {
            names.extend([d.id.clone(), d.name.clone(), d.name.to_lowercase().replace(' ', "")]);
            names.extend(d.aliases.iter().cloned());
        }
        names.extend(["not a gpu 9000", "RTX", "MI250X/MI250", "Apple M1 Max"].map(String::from));
        let bundled = DeviceCatalog::bundled().unwrap();
        let answer = |catalog: &DeviceCatalog, name: &str| {
            catalog.resolve(name).map(|d| d.id.clone()).map_err(|e| e.to_string())
        };
        for name in &names {
            assert_eq!(answer(&bundled, name), answer(&loaded, name), "{name}");
            assert_eq!(bundled.resolved_from(name), loaded.resolved_from(name), "{name}");
        }
        assert_eq!(bundled.devices(), loaded.devices());
        assert_eq!(
            bundled.by_id("nvidia-geforce-rtx-3080-ti").map(|d| &d.name),
            Some(&String::from("NVIDIA GeForce RTX 3080 Ti"))
        );
    }

    #[test]
    fn real_spellings_resolve_right_or_not_at_all() {
        let catalog = DeviceCatalog::builtin().with_database(DATABASE_CSV).unwrap();
        let table = Table::parse(SPELLINGS).unwrap();
        let (mut right, mut wrong, mut missed) = (0_u32, Vec::new(), Vec::new());
        for row in &table.rows {
            let get = |c: &str| table.get(row, c).unwrap();
            let spelling = get("spelling");
            let ambiguous = get("ambiguous") == "yes";
            let want = (!ambiguous)
                .then(|| expected(&catalog, get("expected_model")))
                .flatten();
            let got = catalog.resolve(spelling);
            // A variant that differs only in memory answers for an unstated memory size; so does an
            // ambiguous spelling whose candidates differ only in memory.
            let same = |a: f64, b: f64| (a - b).abs() <= 0.01 * a.max(b);
            let same_rates = |w: &Device, g: &Device| {
                same(w.dense_tflops.fp32, g.dense_tflops.fp32) && same(w.memory_bandwidth_gbs, g.memory_bandwidth_gbs)
            };
            let memory_variant = |w: &Device, g: &Device| get("expected_memory_gb").is_empty() && same_rates(w, g);
            let listed: Vec<&Device> = get("expected_model")
                .split(" | ")
                .filter_map(|c| expected(&catalog, c))
                .collect();
            // The product's listings by memory size (`RX 9060 XT 8 GB`, `… 16 GB`) when it has no plain one.
            let prefix = crate::text::normalize_key(get("expected_model"));
            let by_memory: Vec<&Device> = catalog
                .devices()
                .iter()
                .filter(|d| {
                    let key = crate::text::normalize_key(&d.name);
                    key.strip_prefix(&prefix).is_some_and(|rest| {
                        rest.ends_with("gb") && rest[..rest.len() - 2].bytes().all(|b| b.is_ascii_digit())
                    })
                })
                .collect();
            let among_memory_variants = |g: &Device| {
                let candidates = if ambiguous { &listed } else { &by_memory };
                candidates.len() >= 2
                    && candidates.iter().any(|c| c.id == g.id)
                    && candidates.iter().all(|c| same_rates(c, g))
            };
            match (want, got) {
                (Some(w), Ok(g)) if w.id == g.id || memory_variant(w, g) => right += 1,
                (None, Ok(g)) if among_memory_variants(g) => right += 1,
                (None, Err(_)) => right += 1,
                (_, Ok(g)) => wrong.push(alloc::format!(
                    "{spelling:?} → {} (expected {})",
                    g.name,
                    get("expected_model")
                )),
                (Some(w), Err(e)) => missed.push(alloc::format!("{spelling:?}: {e} (expected {})", w.name)),
            }
        }
        let total = table.rows.len();
        let share = f64::from(right) / table.rows.len() as f64;
        #[allow(clippy::print_stdout, reason = "the figures are reported")]
        {
            std::println!(
                "device spellings: {right} of {total} right ({:.1} %), {} wrong, {} refused that name a catalog device",
                share * 100.0,
                wrong.len(),
                missed.len()
            );
        }
        assert!(wrong.is_empty(), "wrong matches:\n  {}", wrong.join("\n  "));
        assert!(
            total >= 150 && share >= 0.95,
            "{right}/{total} right ({:.1} %); missed:\n  {}",
            share * 100.0,
            missed.join("\n  ")
        );
    }
}

/// detect-gpu's GPUs (`data/measured/detect_gpu_gfxbench.csv`: WebGL renderer names as detect-gpu
/// cleans them, with the frame rates GFXBench measured at each screen resolution): a source of real
/// names, and a cross-check of relative speed against the database's FP32 rates.
#[cfg(feature = "device-db")]
mod detect_gpu {
    use super::*;
    use crate::csv::Table;
    use alloc::vec::Vec;

    const GFXBENCH: &str = include_str!("../../../../data/measured/detect_gpu_gfxbench.csv");

    /// Ranks (1-based, ties averaged).
    fn ranks(values: &[f64]) -> Vec<f64> {
        let mut order: Vec<usize> = (0..values.len()).collect();
        order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
        let mut out = alloc::vec![0.0; values.len()];
        let mut i = 0;
        while i < order.len() {
            let mut j = i;
            while j + 1 < order.len() && values[order[j + 1]].total_cmp(&values[order[i]]).is_eq() {
                j += 1;
            }
            for &k in &order[i..=j] {
                out[k] = (i + j) as f64 / 2.0 + 1.0;
            }
            i = j + 1;
        }
        out
    }

    /// Spearman's rank correlation.
    fn spearman(a: &[f64], b: &[f64]) -> f64 {
        let (ra, rb) = (ranks(a), ranks(b));
        let n = ra.len() as f64;
        let mean = f64::midpoint(n, 1.0);
        let cov: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - mean) * (y - mean)).sum();
        let var = |r: &[f64]| r.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>();
        cov / libm::sqrt(var(&ra) * var(&rb))
    }

    #[test]
    #[allow(clippy::print_stdout, reason = "the cross-check's figures are reported")]
    fn gfxbench_ranks_the_desktop_gpus_like_the_database_fp32_rates() {
        let catalog = DeviceCatalog::builtin().with_database(DATABASE_CSV).unwrap();
        let table = Table::parse(GFXBENCH).unwrap();
        // Each desktop name's best throughput in pixels per second over the resolutions measured.
        let mut names: alloc::collections::BTreeMap<&str, f64> = alloc::collections::BTreeMap::new();
        for row in &table.rows {
            let get = |c: &str| table.get(row, c).unwrap();
            if !get("file").starts_with("d-") || get("blocklisted") != "0" {
                continue;
            }
            let number = |c: &str| get(c).parse::<f64>().unwrap();
            let pixels = number("width") * number("height") * number("fps");
            let best = names.entry(get("name")).or_insert(0.0);
            *best = best.max(pixels);
        }
        // Per device the names resolve to: the best figure, against its FP32 rate.
        let mut devices: Vec<(&str, f64, f64)> = Vec::new();
        let mut resolved = 0;
        for (name, pixels) in &names {
            // Unique matches only (`resolve` would also rank suggestions for every unknown name).
            let device = match catalog.resolution(name) {
                super::super::resolve::Resolution::Unique(device) => device,
                super::super::resolve::Resolution::MemoryVariants(variants) => variants[0],
                _ => continue,
            };
            resolved += 1;
            match devices.iter_mut().find(|(id, _, _)| *id == device.id) {
                Some((_, best, _)) => *best = best.max(*pixels),
                None => devices.push((&device.id, *pixels, device.dense_tflops.fp32)),
            }
        }
        let gfx: Vec<f64> = devices.iter().map(|d| d.1).collect();
        let fp32: Vec<f64> = devices.iter().map(|d| d.2).collect();
        let rho = spearman(&gfx, &fp32);
        std::println!(
            "detect-gpu: {resolved} of {} desktop names resolve to {} database devices; Spearman ρ(GFXBench pixels/s, FP32 TFLOPS) = {rho:.2}",
            names.len(),
            devices.len()
        );
        assert!(
            resolved * 2 >= names.len(),
            "{resolved} of {} names resolve",
            names.len()
        );
        assert!(rho >= 0.7, "ρ = {rho:.2} over {} devices", devices.len());
    }
}
