import { randomBytes } from 'node:crypto'
import mysql from 'mysql2/promise'
import { MARIADB } from './mariadb-warehouse.js'

/**
 * A database of one table on the local MariaDB, readable only by a user with a password (so a
 * datasource that lost or changed its password cannot connect): for tests of keeping a secret.
 */
export interface PasswordDatabase {
  readonly credentials: { host: string; port: number; user: string; password: string; database: string }
  drop(): Promise<void>
}

export async function createPasswordDatabase(): Promise<PasswordDatabase> {
  const suffix = randomBytes(4).toString('hex')
  const database = `strata_pw_${suffix}`
  const user = `strata_pw_${suffix}`
  const password = `Pw-${randomBytes(8).toString('hex')}`
  const conn = await mysql.createConnection({ ...MARIADB })
  await conn.query(`create database \`${database}\``)
  await conn.query(`create table \`${database}\`.items (id int primary key, tenant varchar(20) not null)`)
  await conn.query(`create user '${user}'@'%' identified by '${password}'`)
  await conn.query(`grant select on \`${database}\`.* to '${user}'@'%'`)
  return {
    credentials: { host: MARIADB.host, port: MARIADB.port, user, password, database },
    async drop() {
      try {
        await conn.query(`drop user if exists '${user}'@'%'`)
        await conn.query(`drop database if exists \`${database}\``)
      } finally {
        await conn.end()
      }
    },
  }
}
