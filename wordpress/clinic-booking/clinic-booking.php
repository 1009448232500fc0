<?php
/**
 * Plugin Name:       Clinic booking
 * Plugin URI:        https://github.com/clinic-booking/clinic-booking
 * Description:       The clinic's booking widget as a block and a shortcode, for every author: the plugin writes the tag and loads the widget's script from the clinic's BFF.
 * Version:           0.1.0
 * Requires at least: 6.1
 * Requires PHP:      7.4
 * Author:            clinic-booking
 * License:           MIT
 * License URI:       https://opensource.org/licenses/MIT
 * Text Domain:       clinic-booking
 * Domain Path:       /languages
 *
 * @package ClinicBooking
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

define( 'CLINIC_BOOKING_VERSION', '0.1.0' );
define( 'CLINIC_BOOKING_FILE', __FILE__ );
define( 'CLINIC_BOOKING_DIR', __DIR__ );

require_once __DIR__ . '/includes/widget-lists.php';
require_once __DIR__ . '/includes/settings.php';
require_once __DIR__ . '/includes/connection-check.php';
require_once __DIR__ . '/includes/assets.php';
require_once __DIR__ . '/includes/render.php';
require_once __DIR__ . '/includes/settings-page.php';

add_action(
	'init',
	static function () {
		load_plugin_textdomain( 'clinic-booking', false, dirname( plugin_basename( CLINIC_BOOKING_FILE ) ) . '/languages' );
	},
	5
);
add_action( 'init', 'clinic_booking_register_block_and_shortcode' );
add_action( 'admin_init', 'clinic_booking_register_settings' );
add_action( 'admin_menu', 'clinic_booking_add_settings_page' );
add_action( 'admin_post_clinic_booking_check', 'clinic_booking_handle_check' );
add_filter( 'plugin_action_links_' . plugin_basename( __FILE__ ), 'clinic_booking_action_links' );
clinic_booking_add_asset_hooks();

/**
 * The block (block/block.json, rendered here in PHP) and the shortcode: both write the same markup.
 */
function clinic_booking_register_block_and_shortcode() {
	register_block_type(
		__DIR__ . '/block',
		array( 'render_callback' => 'clinic_booking_render_block' )
	);
	// The editor's choices come from the one list the PHP side checks against (includes/widget-lists.php).
	$settings = clinic_booking_settings();
	$editor   = array(
		'sections'  => Clinic_Booking_Lists::SECTIONS,
		'languages' => Clinic_Booking_Lists::LANGUAGES,
		'defaults'  => array(
			'sections' => $settings['sections'],
			'mode'     => $settings['mode'],
			'lang'     => '' !== $settings['lang'] ? $settings['lang'] : clinic_booking_site_lang(),
		),
	);
	wp_add_inline_script( 'clinic-booking-booking-editor-script', 'window.clinicBookingEditor = ' . wp_json_encode( $editor ) . ';', 'before' );
	wp_set_script_translations( 'clinic-booking-booking-editor-script', 'clinic-booking', __DIR__ . '/languages' );
	add_shortcode( 'clinic_booking', 'clinic_booking_render_shortcode' );
}
