//! The databases a store test runs on.

use crate::store::Store;
use std::future::Future;

/// The environment variable naming the PostgreSQL the tests may create databases in.
pub(crate) const POSTGRES_VAR: &str = "REFEREE_TEST_POSTGRES";

/// A fresh store on each backend, dropped with it.
pub(crate) struct Backends;

impl Backends {
    /// A fresh SQLite store in a temporary directory (kept alive by the returned guard).
    pub(crate) async fn sqlite() -> (Store, tempfile::TempDir) {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite:{}", dir.path().join("ladder.sqlite").display());
        (Store::open(&url).await.expect("SQLite opens"), dir)
    }

    /// A fresh PostgreSQL database and its store, or `None` (with a SKIPPED line; a failure
    /// under `CI`) when no PostgreSQL is given.
    pub(crate) async fn postgres(test: &str) -> Option<(Store, FreshDatabase)> {
        let Ok(admin) = std::env::var(POSTGRES_VAR) else {
            assert!(
                std::env::var_os("CI").is_none(),
                "{test} needs PostgreSQL ({POSTGRES_VAR}), and under CI a test does not skip"
            );
            eprintln!("SKIPPED {test} on PostgreSQL: {POSTGRES_VAR} is not set");
            return None;
        };
        let fresh = FreshDatabase::create(&admin).await;
        let store = Store::open(&fresh.url).await.expect("PostgreSQL opens");
        Some((store, fresh))
    }
}

/// A database made for one test, dropped after it.
pub(crate) struct FreshDatabase {
    admin: String,
    name: String,
    /// Its URL.
    pub(crate) url: String,
}

impl FreshDatabase {
    async fn create(admin: &str) -> FreshDatabase {
        use sqlx::Connection;
        let name = format!(
            "ladder_test_{}_{}",
            std::process::id(),
            rand::random::<u32>()
        );
        let mut conn = sqlx::PgConnection::connect(admin)
            .await
            .expect("the test PostgreSQL answers");
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut conn)
            .await
            .expect("a test database is made");
        conn.close().await.ok();
        let base = admin.rsplit_once('/').map_or(admin, |(base, _)| base);
        FreshDatabase {
            admin: admin.to_owned(),
            url: format!("{base}/{name}"),
            name,
        }
    }

    async fn drop_now(&self) {
        use sqlx::Connection;
        if let Ok(mut conn) = sqlx::PgConnection::connect(&self.admin).await {
            let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
            let _ = sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
                .execute(&mut conn)
                .await;
            conn.close().await.ok();
        }
    }
}

/// Runs `case` on a fresh SQLite store, then on a fresh PostgreSQL database.
pub(crate) async fn on_each<F, Fut>(test: &str, case: F)
where
    F: Fn(Store) -> Fut,
    Fut: Future<Output = ()>,
{
    let (store, _dir) = Backends::sqlite().await;
    case(store.clone()).await;
    store.close().await;
    if let Some((store, fresh)) = Backends::postgres(test).await {
        case(store.clone()).await;
        store.close().await;
        fresh.drop_now().await;
    }
}
