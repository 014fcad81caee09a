//! The PostgreSQL backend against a real server: a throwaway cluster from Debian's packages
//! (`/usr/lib/postgresql/*/bin`), started in a temporary directory on a Unix socket (no TCP port)
//! and stopped afterwards. `HWFIT_SKIP_POSTGRES=1` skips it on machines without PostgreSQL.
#![allow(clippy::print_stderr, reason = "a skipped backend says so")]

use std::path::{Path, PathBuf};
use std::process::Command;

use hwfit_db::PostgresStore;

mod contract;

/// The newest PostgreSQL server binaries installed.
fn bin_dir() -> Option<PathBuf> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path().join("bin"))
        .filter(|b| b.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop()
}

/// A running throwaway cluster; stopped on drop.
struct Cluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    as_postgres: bool,
}

impl Cluster {
    fn run(&self, tool: &str, args: &[&str]) {
        let path = self.bin.join(tool);
        let mut command = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        let out = command.args(args).output().unwrap_or_else(|e| panic!("{tool}: {e}"));
        assert!(
            out.status.success(),
            "{tool} {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn start(bin: PathBuf) -> Self {
        let dir = tempfile::tempdir().unwrap();
        // initdb refuses to run as root: the cluster belongs to the postgres user then.
        let as_postgres = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
        if as_postgres {
            let status = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(dir.path())
                .status()
                .unwrap();
            assert!(status.success());
        }
        let cluster = Self { dir, bin, as_postgres };
        let data = cluster.data();
        cluster.run("initdb", &["-D", &data, "-A", "trust", "-U", "postgres", "--no-sync"]);
        let options = format!("-k {} -c listen_addresses='' -c fsync=off", cluster.socket());
        let log = format!("{data}/server.log");
        cluster.run("pg_ctl", &["-D", &data, "-o", &options, "-l", &log, "-w", "start"]);
        cluster
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    fn socket(&self) -> String {
        self.dir.path().display().to_string()
    }

    fn url(&self) -> String {
        format!("host={} user=postgres dbname=postgres", self.socket())
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data();
        let path: &Path = &self.bin;
        let mut command = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path.join("pg_ctl"));
            c
        } else {
            Command::new(path.join("pg_ctl"))
        };
        let _ = command.args(["-D", &data, "-m", "immediate", "stop"]).output();
    }
}

#[test]
fn postgres_keeps_the_storage_contract() {
    if std::env::var_os("HWFIT_SKIP_POSTGRES").is_some() {
        eprintln!("HWFIT_SKIP_POSTGRES is set: the PostgreSQL backend is not tested here");
        return;
    }
    let bin =
        bin_dir().expect("PostgreSQL server binaries in /usr/lib/postgresql/*/bin (or set HWFIT_SKIP_POSTGRES=1)");
    let cluster = Cluster::start(bin);
    let mut store = PostgresStore::open(&cluster.url()).unwrap();
    let total = contract::storage_contract(&mut store);
    // A second host opening the same database sees everything and migrates nothing.
    let mut second = hwfit_db::open(&cluster.url()).unwrap();
    assert_eq!(second.stats().unwrap().records, total);
}
