<?php
/**
 * Installs WordPress into the database its wp-config.php names, as wp-admin/install.php would, then adds what
 * the tests need: an Author (who has no unfiltered_html), an application password for each user, the site's
 * language. Run with php-cli: php install-wordpress.php WORDPRESS_DIR SITE_URL ADMIN_PASSWORD AUTHOR_PASSWORD.
 * Prints one line of JSON.
 */

[ , $dir, $url, $admin_password, $author_password ] = $argv;

define( 'WP_INSTALLING', true );
$_SERVER['HTTP_HOST']   = parse_url( $url, PHP_URL_HOST ) . ':' . parse_url( $url, PHP_URL_PORT );
$_SERVER['REQUEST_URI'] = '/';
require $dir . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-includes/class-wp-application-passwords.php';

// WordPress mails the new site's details; this machine sends no e-mail.
add_filter( 'pre_wp_mail', '__return_false' );
$installed = wp_install( 'Bright Smile Dental', 'admin', 'admin@clinic.example', false, '', wp_slash( $admin_password ), 'en_US' );
update_option( 'siteurl', $url );
update_option( 'home', $url );
// A London clinic's site: WordPress says en_GB, the widget should then speak en-GB.
update_option( 'WPLANG', 'en_GB' );
update_option( 'timezone_string', 'Europe/London' );

$author_id = wp_insert_user(
	array(
		'user_login' => 'author',
		'user_pass'  => $author_password,
		'user_email' => 'author@clinic.example',
		'role'       => 'author',
	)
);
if ( is_wp_error( $author_id ) ) {
	fwrite( STDERR, $author_id->get_error_message() . "\n" );
	exit( 1 );
}
[ $author_app_password ] = WP_Application_Passwords::create_new_application_password( $author_id, array( 'name' => 'tests' ) );

echo wp_json_encode(
	array(
		'admin_id'            => (int) $installed['user_id'],
		'author_id'           => (int) $author_id,
		'author_app_password' => $author_app_password,
		'author_can_unfiltered_html' => user_can( $author_id, 'unfiltered_html' ),
		'locale'              => get_locale(),
		'theme'               => get_stylesheet(),
	)
) . "\n";
