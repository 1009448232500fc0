<?php
/**
 * Deleting the plugin deletes what it kept: its settings, and on a network every site's.
 *
 * @package ClinicBooking
 */

if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
	exit;
}

/**
 * Deletes the options of the site now current.
 */
function clinic_booking_uninstall_site() {
	global $wpdb;
	delete_option( 'clinic_booking_settings' );
	// The last "Check connection" answers, kept a few minutes per user for the settings page.
	$wpdb->query( "DELETE FROM {$wpdb->options} WHERE option_name LIKE '\\_transient\\_clinic\\_booking\\_check\\_%' OR option_name LIKE '\\_transient\\_timeout\\_clinic\\_booking\\_check\\_%'" ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
}

if ( is_multisite() ) {
	foreach ( get_sites( array( 'fields' => 'ids' ) ) as $clinic_booking_site_id ) {
		switch_to_blog( $clinic_booking_site_id );
		clinic_booking_uninstall_site();
		restore_current_blog();
	}
} else {
	clinic_booking_uninstall_site();
}
