<?php
/**
 * Creates or drops a test site's own database: php database.php create|drop HOST:PORT USER PASSWORD NAME.
 * The name is the harness's own (wp_test_ and hex), checked again here before it goes into SQL.
 */

[ , $action, $host, $user, $password, $name ] = $argv;
if ( ! preg_match( '/^wp_test_[0-9a-f]+$/', $name ) ) {
	fwrite( STDERR, "not a test database name: $name\n" );
	exit( 2 );
}
[ $hostname, $port ] = array_pad( explode( ':', $host, 2 ), 2, '3306' );
mysqli_report( MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT );
$db = new mysqli( $hostname, $user, $password, '', (int) $port );
$db->query( 'create' === $action ? "CREATE DATABASE `$name` CHARACTER SET utf8mb4" : "DROP DATABASE IF EXISTS `$name`" );
